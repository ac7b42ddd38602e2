import { MEMBERSHIP_MESSAGES } from '@receipts/common';
import { AuditRepository, IntakeRepository, MemberRepository, schema, UserRepository, WorkspaceRepository, type UserRow } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../tests/support/database.js';
import { addMember } from '../../../tests/support/workspaces.js';
import { HttpError } from '../http-error.js';
import { MemberService } from './member.service.js';

describe('MemberService (real PostgreSQL)', () => {
  let database: TestDatabase;
  let users: UserRepository;
  let workspaces: WorkspaceRepository;
  let service: MemberService;
  let n = 0;

  beforeAll(async () => {
    database = await openTestDatabase();
    users = new UserRepository(database.db);
    workspaces = new WorkspaceRepository(database.db);
    service = new MemberService(new MemberRepository(database.db), workspaces);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  const account = async (): Promise<UserRow> => (await users.insert({ email: `m${++n}@example.test`, username: `m${n}`, passwordHash: 'x' }))!;
  /** A team workspace of a new owner with a new account in each of `roles`. */
  const team = async (...roles: Array<'admin' | 'accountant' | 'member'>) => {
    const owner = await account();
    const { id } = await workspaces.create(owner.id, 'Team');
    const others: UserRow[] = [];
    for (const role of roles) {
      const user = await account();
      await addMember(database.db, id, user.id, role);
      others.push(user);
    }
    return { id, owner, others };
  };
  const roles = async (workspaceId: string) => Object.fromEntries((await workspaces.members(workspaceId)).map((m) => [m.userId, m.role]));
  /** The acts on members recorded in the workspace's trail (its making left out), newest first. */
  const memberActs = async (workspaceId: string) =>
    (await new AuditRepository(database.db).page(workspaceId, { limit: 10 })).events.map((e) => e.action).filter((a) => a !== 'workspace.created');
  const refusal = (err: unknown) => (err instanceof HttpError ? { status: err.status, message: err.message } : err);

  it('hands over once when the owner hands the workspace to two members at the same moment', async () => {
    const { id, owner, others } = await team('admin', 'member', 'accountant');
    const outcomes = await Promise.allSettled(others.map((o) => service.transferOwnership(id, owner.id, o.id)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    // The ones after found the caller an admin already: the policy's no.
    for (const failed of outcomes.filter((o) => o.status === 'rejected')) expect(refusal((failed as PromiseRejectedResult).reason)).toMatchObject({ status: 403 });
    const after = await roles(id);
    expect(Object.values(after).filter((r) => r === 'owner')).toHaveLength(1);
    expect(after[owner.id]).toBe('admin');
    expect(await memberActs(id)).toEqual(['ownership.transferred']);
  });

  it('makes concurrent changes of one member one after another: a role change and a removal at once end removed, each act recorded once', async () => {
    const { id, owner, others } = await team('admin', 'member');
    const [admin, member] = others as [UserRow, UserRow];
    const outcomes = await Promise.allSettled([service.remove(id, admin.id, member.id), service.changeRole(id, owner.id, member.id, 'accountant')]);
    // Removed first, the role change finds no such member; changed first, the removal follows.
    expect(outcomes[0].status).toBe('fulfilled');
    expect(await roles(id)).not.toHaveProperty(member.id);
    expect((await memberActs(id)).sort()).toEqual(outcomes[1].status === 'fulfilled' ? ['member.removed', 'member.role-changed'] : ['member.removed']);
  });

  it('checks the actor’s role as it is when the change is made, not as the request found it', async () => {
    const { id, owner, others } = await team('admin', 'member');
    const [admin, member] = others as [UserRow, UserRow];
    await service.changeRole(id, owner.id, admin.id, 'member');
    await expect(service.remove(id, admin.id, member.id).catch(refusal)).resolves.toMatchObject({ status: 403 });
    expect(await roles(id)).toHaveProperty(member.id, 'member');
  });

  it('takes a leaving member’s intake address into the workspace with them, and only that one', async () => {
    const { id, others } = await team('member');
    const [member] = others as [UserRow];
    const intake = new IntakeRepository(database.db);
    await intake.replace(member.id, id, `leave-team-${n}`);
    await intake.replace(member.id, member.id, `leave-own-${n}`);
    await service.leave(id, member.id);
    expect(await intake.accountOf(`leave-team-${n}`)).toBeNull();
    expect(await intake.accountOf(`leave-own-${n}`)).toMatchObject({ userId: member.id, workspaceId: member.id });
  });

  it('refuses the owner leaving, and the owner handing over to themselves', async () => {
    const { id, owner } = await team();
    await expect(service.leave(id, owner.id).catch(refusal)).resolves.toMatchObject({ status: 403 });
    await expect(service.transferOwnership(id, owner.id, owner.id).catch(refusal)).resolves.toEqual({ status: 409, message: MEMBERSHIP_MESSAGES.alreadyOwner });
    expect((await database.db.select().from(schema.workspaceMembers).where(eq(schema.workspaceMembers.workspaceId, id))).map((m) => m.role)).toEqual(['owner']);
  });
});
