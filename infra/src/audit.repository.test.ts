import { randomUUID } from 'node:crypto';
import { personalWorkspace } from '@receipts/common';
import { eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../tests/support/database.js';
import { teamWorkspace } from '../../tests/support/workspaces.js';
import { AuditRepository, recordAudit, type AuditCursor } from './audit.repository.js';
import * as schema from './db/schema.js';
import { QuotaService, type QuotaOwner } from './quota.service.js';
import { UploadRepository } from './upload.repository.js';
import { UserRepository } from './user.repository.js';

// Real PostgreSQL: the trail's order, its cursor and its atomicity live in SQL statements.
describe('audit repository', { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let audit: AuditRepository;
  let users: UserRepository;

  beforeAll(async () => {
    database = await openTestDatabase();
    audit = new AuditRepository(database.db);
    users = new UserRepository(database.db);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  const account = async (name = 'someone') => (await users.insert({ email: `${name}-${randomUUID()}@example.test`, username: name, passwordHash: 'x' }))!;

  /** Every event of the workspace, page by page of `limit`, following `next`. */
  async function walk(workspaceId: string, limit: number, filter: { action?: 'receipt.uploaded'; actorId?: string } = {}) {
    const seen: string[] = [];
    let after: AuditCursor | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const { events, next } = await audit.page(workspaceId, { limit, after, ...filter });
      seen.push(...events.map((e) => e.id));
      if (!next) return seen;
      after = next;
    }
    throw new Error('the pages never ended');
  }

  it('pages newest first with an exact cursor: acts of one moment, and of one millisecond, are neither skipped nor repeated', async () => {
    const owner = await account();
    const workspace = await teamWorkspace(database.db, owner.id);
    // Six acts of one transaction share its time; three more fall within one millisecond, microseconds apart.
    await database.db.transaction(async (tx) => {
      for (let i = 0; i < 6; i++) await recordAudit(tx, { workspaceId: workspace, actorId: owner.id, action: 'receipt.uploaded', detail: { filename: `${i}.png` } });
    });
    for (const at of ['2026-01-01T10:00:00.123900Z', '2026-01-01T10:00:00.123100Z', '2026-01-01T10:00:00.123400Z']) {
      await database.db.insert(schema.auditEvents).values({ workspaceId: workspace, actorId: owner.id, action: 'receipt.deleted', createdAt: sql`${at}::timestamptz` });
    }
    const all = await database.db
      .select({ id: schema.auditEvents.id })
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.workspaceId, workspace))
      .orderBy(sql`${schema.auditEvents.createdAt} DESC, ${schema.auditEvents.id} DESC`);
    expect(all).toHaveLength(9);
    for (const limit of [1, 2, 4, 9, 10]) expect(await walk(workspace, limit)).toEqual(all.map((r) => r.id));
    // The last page says so.
    expect((await audit.page(workspace, { limit: 9 })).next).toBeNull();
    // The acts of today come before those of January, and say who did them.
    const first = await audit.page(workspace, { limit: 6 });
    expect(first.events.map((e) => e.action)).toEqual(Array(6).fill('receipt.uploaded'));
    expect(first.events[0]).toMatchObject({ actor: owner.email, subject: null });
  });

  it('filters by action and by member, and never shows another workspace’s acts', async () => {
    const [owner, member, stranger] = [await account('owner'), await account('member'), await account('stranger')];
    const workspace = await teamWorkspace(database.db, owner.id, [{ userId: member.id, role: 'member' }]);
    const theirs = await teamWorkspace(database.db, stranger.id);
    const act = (workspaceId: string, actorId: string, action: 'receipt.uploaded' | 'export.downloaded') => audit.record({ workspaceId, actorId, action });
    await act(workspace, owner.id, 'receipt.uploaded');
    await act(workspace, member.id, 'receipt.uploaded');
    await act(workspace, member.id, 'export.downloaded');
    await act(theirs, stranger.id, 'receipt.uploaded');

    const actorsOf = async (filter: { action?: 'receipt.uploaded'; actorId?: string }) =>
      (await audit.page(workspace, { limit: 10, ...filter })).events.map((e) => [e.actor, e.action]);
    expect(await actorsOf({})).toHaveLength(3);
    expect(await actorsOf({ action: 'receipt.uploaded' })).toEqual(expect.arrayContaining([[owner.email, 'receipt.uploaded'], [member.email, 'receipt.uploaded']]));
    expect(await actorsOf({ action: 'receipt.uploaded' })).toHaveLength(2);
    expect(await actorsOf({ actorId: member.id })).toHaveLength(2);
    expect(await actorsOf({ actorId: member.id, action: 'receipt.uploaded' })).toEqual([[member.email, 'receipt.uploaded']]);
    expect(await actorsOf({ actorId: stranger.id })).toEqual([]);
    expect(await walk(workspace, 1, { actorId: member.id })).toHaveLength(2);
    // Who can be filtered by: those who acted here, by their address now.
    await database.db.update(schema.users).set({ email: `renamed-${member.email}` }).where(eq(schema.users.id, member.id));
    expect(await audit.actors(workspace)).toEqual(
      [
        { id: owner.id, email: owner.email },
        { id: member.id, email: `renamed-${member.email}` },
      ].sort((a, b) => a.email.localeCompare(b.email)),
    );
  });

  it('records nothing when the transaction it was recorded in rolls back', async () => {
    const owner = await account();
    const workspace = await teamWorkspace(database.db, owner.id);
    const rolledBack = database.db.transaction(async (tx) => {
      await recordAudit(tx, { workspaceId: workspace, actorId: owner.id, action: 'settings.changed', detail: { setting: 'datev', fields: ['consultantNumber'] } });
      tx.rollback();
    });
    await expect(rolledBack).rejects.toBeInstanceOf(TransactionRollbackError);
    expect((await audit.page(workspace, { limit: 10 })).events).toEqual([]);
  });

  it('keeps who acted after their account is gone, by the address they had', async () => {
    const [owner, leaver] = [await account('owner'), await account('leaver')];
    const workspace = await teamWorkspace(database.db, owner.id, [{ userId: leaver.id, role: 'admin' }]);
    await audit.record({ workspaceId: workspace, actorId: leaver.id, action: 'workspace.renamed', detail: { from: 'a', to: 'b' } });
    await database.db.delete(schema.users).where(eq(schema.users.id, leaver.id));
    expect((await audit.page(workspace, { limit: 10 })).events).toEqual([expect.objectContaining({ actor: leaver.email, action: 'workspace.renamed' })]);
    expect(await audit.actors(workspace)).toEqual([]);
  });

  it('records an account’s upload in the upload’s own statement: an anonymous one and one the quota refuses record nothing', async () => {
    const uploads = new UploadRepository(database.db);
    const quota = new QuotaService(database.db, []);
    const owner = await account('uploader');
    const signedIn: QuotaOwner = { userId: owner.id, anonId: null, workspace: personalWorkspace(owner.id) };
    const upload = (who: QuotaOwner, limit: number) =>
      quota
        .policy(who)
        .then((policy) =>
          uploads.create({ id: randomUUID(), owner: who, filename: 'Taxi.pdf', mimeType: 'application/pdf', size: 3, sha256: randomUUID(), currencyCode: null, lane: 'standard' }, { ...policy, limit }),
        );
    const row = (await upload(signedIn, 1))!;
    expect(await upload(signedIn, 1)).toBeNull();
    expect((await audit.page(owner.id, { limit: 10 })).events).toEqual([
      expect.objectContaining({ action: 'receipt.uploaded', actor: owner.email, subject: row.id, detail: { filename: 'Taxi.pdf' } }),
    ]);
    const visitor: QuotaOwner = { userId: null, anonId: randomUUID() };
    const anonymous = (await upload(visitor, 10))!;
    expect(await database.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.subject, anonymous.id))).toEqual([]);

    // Its deletion is recorded with it.
    expect(await uploads.remove(signedIn, row.id)).toBe(true);
    expect((await audit.page(owner.id, { limit: 1 })).events).toEqual([expect.objectContaining({ action: 'receipt.deleted', subject: row.id, detail: { filename: 'Taxi.pdf' } })]);
  });
});
