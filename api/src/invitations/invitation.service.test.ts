import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MEMBERSHIP_MESSAGES, OPEN_INVITATIONS_MAX } from '@receipts/common';
import { createLogger, createMailer, InvitationRepository, schema, UserRepository, WorkspaceRepository, type UserRow } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../tests/support/database.js';
import { invitationTokenIn, mailsInFolder } from '../../../tests/support/mail-folder.js';
import { addMember } from '../../../tests/support/workspaces.js';
import { HttpError } from '../http-error.js';
import { InvitationService } from './invitation.service.js';

describe('InvitationService (real PostgreSQL, mail written to files)', () => {
  let database: TestDatabase;
  let users: UserRepository;
  let workspaces: WorkspaceRepository;
  let service: InvitationService;
  let mailDir: string;
  let n = 0;

  beforeAll(async () => {
    database = await openTestDatabase();
    users = new UserRepository(database.db);
    workspaces = new WorkspaceRepository(database.db);
    mailDir = await mkdtemp(path.join(os.tmpdir(), 'invitation-mail-'));
    const mailer = createMailer({ from: 'Receipts <no-reply@receipts.test>', dataDir: mailDir, log: createLogger({ level: 'silent', role: 'test' }) });
    service = new InvitationService(new InvitationRepository(database.db), mailer, []);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await rm(mailDir, { recursive: true, force: true });
  });

  /** A new account with its address confirmed. */
  const account = async (): Promise<UserRow> => {
    const email = `person${++n}@example.test`;
    const user = (await users.insert({ email, username: `person${n}`, passwordHash: 'x' }))!;
    await database.db.update(schema.users).set({ emailVerifiedAt: new Date() }).where(eq(schema.users.id, user.id));
    return user;
  };
  const team = async (owner: UserRow) => {
    const made = await workspaces.create(owner.id, 'Corner Bakery');
    return { id: made.id, name: made.name };
  };
  const linkTo = async (address: string) => invitationTokenIn((await mailsInFolder(mailDir, address)).at(-1)!);
  const refusal = (err: unknown) => (err instanceof HttpError ? { status: err.status, code: err.code, message: err.message } : err);

  it('joins once when the same link is accepted twice at the same moment', async () => {
    const owner = await account();
    const workspace = await team(owner);
    const invitee = await account();
    await service.invite(owner, workspace, { email: invitee.email, role: 'member' }, 'http://receipts.test');
    const token = await linkTo(invitee.email);
    const outcomes = await Promise.allSettled([service.accept(invitee.id, token), service.accept(invitee.id, token), service.accept(invitee.id, token)]);
    expect(outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<string>).value)).toEqual([workspace.id]);
    for (const failed of outcomes.filter((o) => o.status === 'rejected')) {
      expect(refusal((failed as PromiseRejectedResult).reason)).toEqual({ status: 404, code: 'NOT_FOUND', message: MEMBERSHIP_MESSAGES.linkInvalid });
    }
    expect((await workspaces.members(workspace.id)).map((m) => m.userId)).toEqual([owner.id, invitee.id]);
  });

  it('keeps open invitations per workspace under the bound; replacing one of them is no new one', async () => {
    const owner = await account();
    const workspace = await team(owner);
    const expiresAt = new Date(Date.now() + 3600_000);
    await database.db.insert(schema.workspaceInvitations).values(
      Array.from({ length: OPEN_INVITATIONS_MAX }, (_, i) => ({ workspaceId: workspace.id, email: `open${i}@example.test`, role: 'member' as const, tokenHash: `bound-${workspace.id}-${i}`, invitedBy: owner.id, expiresAt })),
    );
    await expect(service.invite(owner, workspace, { email: 'one-more@example.test', role: 'member' }, 'http://receipts.test').catch(refusal)).resolves.toEqual({
      status: 409,
      code: 'CONFLICT',
      message: MEMBERSHIP_MESSAGES.tooManyOpen,
    });
    expect(await service.invite(owner, workspace, { email: 'open7@example.test', role: 'admin' }, 'http://receipts.test')).toMatchObject({ email: 'open7@example.test', role: 'admin' });
    expect((await service.list(workspace.id)).invitations).toHaveLength(OPEN_INVITATIONS_MAX);
  });

  it('shows no inviter once their account is gone, and the link dies with the workspace', async () => {
    const [owner, admin, invitee] = [await account(), await account(), await account()];
    const workspace = await team(owner);
    await addMember(database.db, workspace.id, admin.id, 'admin');
    await service.invite(admin, workspace, { email: invitee.email, role: 'accountant' }, 'http://receipts.test');
    const token = await linkTo(invitee.email);
    await users.deleteWithData(admin.id);
    expect(await service.preview(token)).toMatchObject({ workspace: 'Corner Bakery', invitedBy: null, email: invitee.email, role: 'accountant' });
    expect((await service.list(workspace.id)).invitations).toMatchObject([{ email: invitee.email, invitedBy: null }]);
    await workspaces.deleteTeam(workspace.id);
    await expect(service.preview(token).catch(refusal)).resolves.toMatchObject({ status: 404 });
    await expect(service.accept(invitee.id, token).catch(refusal)).resolves.toMatchObject({ status: 404 });
  });

  it('compares the address as the account has it now: a move to the invited address must be confirmed again', async () => {
    const [owner, mover] = [await account(), await account()];
    const workspace = await team(owner);
    await service.invite(owner, workspace, { email: 'new-home@example.test', role: 'member' }, 'http://receipts.test');
    const token = await linkTo('new-home@example.test');
    await expect(service.accept(mover.id, token).catch(refusal)).resolves.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(await users.changeEmail(mover.id, 'new-home@example.test', 'no-session')).toBe(true);
    await expect(service.accept(mover.id, token).catch(refusal)).resolves.toMatchObject({ status: 403, code: 'EMAIL_NOT_VERIFIED' });
    await database.db.update(schema.users).set({ emailVerifiedAt: new Date() }).where(eq(schema.users.id, mover.id));
    expect(await service.accept(mover.id, token)).toBe(workspace.id);
  });
});
