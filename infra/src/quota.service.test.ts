import { randomUUID } from 'node:crypto';
import { FREE_DAILY_LIMIT, laneFor, planById, type WorkspaceScope } from '@receipts/common';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../tests/support/database.js';
import { createSubscriber, subscribeWorkspace } from '../../tests/support/accounts.js';
import { teamWorkspace, teamScope } from '../../tests/support/workspaces.js';
import { BillingRepository } from './billing.repository.js';
import { users } from './db/schema.js';
import { QuotaService } from './quota.service.js';
import { UploadRepository } from './upload.repository.js';
import { createPersonalWorkspace } from './workspace.repository.js';

// Real PostgreSQL: who may take how many units, and what they see, after real reservations.
describe('quota service', { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let quota: QuotaService;
  let uploads: UploadRepository;

  beforeAll(async () => {
    database = await openTestDatabase();
    quota = new QuotaService(database.db, []);
    uploads = new UploadRepository(database.db);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  const upload = (owner: { userId: string | null; anonId: string | null; workspace?: WorkspaceScope | null }) => ({
    id: randomUUID(),
    owner,
    filename: 'r.jpg',
    mimeType: 'image/jpeg',
    size: 3,
    sha256: randomUUID(),
    currencyCode: null,
    lane: 'standard' as const,
  });

  it('gives an active subscriber the plan\'s limit over the billing period, counted under their own workspace, and the express lane', async () => {
    const { userId } = await createSubscriber(database.db, 'starter');
    const policy = await quota.policy({ userId, anonId: null });
    expect(policy).toMatchObject({ subjects: [`workspace:${userId}`], limit: planById('starter')!.receiptLimit, signedIn: true, subscriptionActive: true });
    expect(policy.period.key).toMatch(/^month:/);
    expect(laneFor(policy)).toBe('express');
  });

  it('falls back to the free daily limit once the subscription has lapsed', async () => {
    const { userId } = await createSubscriber(database.db, 'starter');
    const billing = new BillingRepository(database.db);
    const sub = (await billing.subscription(userId))!;
    expect(sub.workspaceId).toBe(userId);
    await billing.saveSubscription({ ...sub, status: 'past_due' });
    const policy = await quota.policy({ userId, anonId: null });
    expect(policy).toMatchObject({ limit: FREE_DAILY_LIMIT, subscriptionActive: false });
    expect(policy.period.key).toMatch(/^day:/);
  });

  it('counts an anonymous visitor by session and by address, and shows the fuller of the two', async () => {
    const clientIp = '198.51.100.7';
    const first = { userId: null, anonId: randomUUID(), clientIp };
    const second = { userId: null, anonId: randomUUID(), clientIp };
    for (let i = 0; i < 3; i++) await uploads.create(upload(first), await quota.policy(first));
    await uploads.create(upload(second), await quota.policy(second));
    // The second visitor used one unit of their own, but the address has used four.
    expect(await quota.view(second)).toMatchObject({ used: 4, limit: FREE_DAILY_LIMIT, canProcess: true });
    await uploads.create(upload(second), await quota.policy(second));
    expect(await uploads.create(upload(first), await quota.policy(first))).toBeNull();
    expect(await quota.view(first)).toMatchObject({ used: 5, canProcess: false });
  });

  it('reads several owners\' figures at once, each its own, a subscriber\'s over its billing period', async () => {
    const clientIp = '198.51.100.8';
    const busy = { userId: null, anonId: randomUUID(), clientIp };
    const neighbour = { userId: null, anonId: randomUUID(), clientIp };
    const elsewhere = { userId: null, anonId: randomUUID(), clientIp: '198.51.100.18' };
    const { userId } = await createSubscriber(database.db, 'starter');
    const subscriber = { userId, anonId: null, clientIp };
    for (let i = 0; i < 2; i++) await uploads.create(upload(busy), await quota.policy(busy));
    await uploads.create(upload(elsewhere), await quota.policy(elsewhere));
    for (let i = 0; i < 3; i++) await uploads.create(upload(subscriber), await quota.policy(subscriber));
    const views = await quota.views([busy, neighbour, elsewhere, subscriber]);
    expect(views.map((v) => v.used)).toEqual([2, 2, 1, 3]);
    expect(views[3]).toMatchObject({ limit: planById('starter')!.receiptLimit });
    expect(views).toEqual(await Promise.all([busy, neighbour, elsewhere, subscriber].map((owner) => quota.view(owner))));
    expect(await quota.views([])).toEqual([]);
  });

  const account = async (facts: { email?: string; createdBeforeVerification?: boolean } = {}) => {
    const email = facts.email ?? `${randomUUID()}@example.test`;
    const [user] = await database.db
      .insert(users)
      .values({ email, username: 'u', passwordHash: 'not-used', createdBeforeVerification: facts.createdBeforeVerification ?? false })
      .returning({ id: users.id, username: users.username });
    await createPersonalWorkspace(database.db, user!);
    return user!.id;
  };

  it('gives an unconfirmed account the anonymous allowance of its client address, until its address is proven', async () => {
    const clientIp = '198.51.100.9';
    const anonymous = { userId: null, anonId: randomUUID(), clientIp };
    const userId = await account();
    const owner = { userId, anonId: null, clientIp };
    for (let i = 0; i < 3; i++) await uploads.create(upload(anonymous), await quota.policy(anonymous));
    expect(await quota.policy(owner)).toMatchObject({ subjects: [`user:${userId}`, `ip:${clientIp}`], limit: FREE_DAILY_LIMIT, signedIn: true });
    expect(await quota.view(owner)).toMatchObject({ used: 3, limit: FREE_DAILY_LIMIT });
    await database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, userId));
    expect((await quota.policy(owner)).subjects).toEqual([`user:${userId}`]);
    expect(await quota.view(owner)).toMatchObject({ used: 0 });
  });

  it('counts an account from before confirmation as confirmed, unless it could be an admin', async () => {
    const strict = new QuotaService(database.db, ['elder@example.test']);
    const clientIp = '198.51.100.10';
    const plain = await account({ createdBeforeVerification: true });
    const elder = await account({ email: 'elder@example.test', createdBeforeVerification: true });
    expect((await strict.policy({ userId: plain, anonId: null, clientIp })).subjects).toEqual([`user:${plain}`]);
    expect((await strict.policy({ userId: elder, anonId: null, clientIp })).subjects).toEqual([`user:${elder}`, `ip:${clientIp}`]);
  });
  /** An account with its own workspace, written straight to the database; its address confirmed unless told. */
  const person = async (confirmed = true) => {
    const userId = await account();
    if (confirmed) await database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, userId));
    return userId;
  };

  it('lets every member of a subscribed workspace draw from its one monthly count, on the express lane', async () => {
    const [owner, accountant, member] = [await person(), await person(), await person(false)];
    const team = await teamWorkspace(database.db, owner, [
      { userId: accountant, role: 'accountant' },
      { userId: member, role: 'member' },
    ]);
    await subscribeWorkspace(database.db, team, 'starter');
    const inTeam = (userId: string, role: WorkspaceScope['role']) => ({ userId, anonId: null, clientIp: '198.51.100.20', workspace: teamScope(team, role) });
    const limit = planById('starter')!.receiptLimit;
    for (const [userId, role] of [[owner, 'owner'], [accountant, 'accountant'], [member, 'member']] as const) {
      const policy = await quota.policy(inTeam(userId, role));
      // An unconfirmed member too: the plan is the workspace's, not the address's.
      expect(policy).toMatchObject({ subjects: [`workspace:${team}`], limit, subscriptionActive: true, signedIn: true });
      expect(laneFor(policy)).toBe('express');
    }
    await uploads.create(upload(inTeam(owner, 'owner')), await quota.policy(inTeam(owner, 'owner')));
    for (let i = 0; i < 2; i++) await uploads.create(upload(inTeam(member, 'member')), await quota.policy(inTeam(member, 'member')));
    expect((await quota.views([inTeam(owner, 'owner'), inTeam(accountant, 'accountant'), inTeam(member, 'member')])).map((v) => [v.used, v.limit])).toEqual([
      [3, limit],
      [3, limit],
      [3, limit],
    ]);
    // In their own workspaces, without a plan, the same people are on their free daily allowance, untouched.
    expect(await quota.view({ userId: member, anonId: null })).toMatchObject({ used: 0, limit: FREE_DAILY_LIMIT });
    expect(laneFor(await quota.policy({ userId: member, anonId: null }))).toBe('standard');
  });

  it('stops every member once the workspace\'s count is used up', async () => {
    const [owner, member] = [await person(), await person()];
    const team = await teamWorkspace(database.db, owner, [{ userId: member, role: 'member' }]);
    await subscribeWorkspace(database.db, team, 'starter');
    const ownerIn = { userId: owner, anonId: null, workspace: teamScope(team, 'owner') };
    const memberIn = { userId: member, anonId: null, workspace: teamScope(team, 'member') };
    const tight = async (who: typeof ownerIn) => ({ ...(await quota.policy(who)), limit: 2 });
    expect(await uploads.create(upload(ownerIn), await tight(ownerIn))).not.toBeNull();
    expect(await uploads.create(upload(memberIn), await tight(memberIn))).not.toBeNull();
    expect(await uploads.create(upload(ownerIn), await tight(ownerIn))).toBeNull();
    expect(await uploads.create(upload(memberIn), await tight(memberIn))).toBeNull();
  });

  it('keeps each member of a workspace without a plan on their own free five a day, in every workspace they act in', async () => {
    const [owner, first, second] = [await person(), await person(), await person()];
    const team = await teamWorkspace(database.db, owner, [
      { userId: first, role: 'member' },
      { userId: second, role: 'member' },
    ]);
    const firstIn = { userId: first, anonId: null, workspace: teamScope(team, 'member') };
    const secondIn = { userId: second, anonId: null, workspace: teamScope(team, 'member') };
    expect(await quota.policy(firstIn)).toMatchObject({ subjects: [`user:${first}`], limit: FREE_DAILY_LIMIT, subscriptionActive: false });
    expect(laneFor(await quota.policy(firstIn))).toBe('standard');
    for (let i = 0; i < 3; i++) await uploads.create(upload(firstIn), await quota.policy(firstIn));
    for (let i = 0; i < 2; i++) await uploads.create(upload({ userId: first, anonId: null }), await quota.policy({ userId: first, anonId: null }));
    // Five of the first member's, in the team and in their own workspace: they are done for the day.
    expect(await uploads.create(upload(firstIn), await quota.policy(firstIn))).toBeNull();
    expect(await quota.view(firstIn)).toMatchObject({ used: 5, canProcess: false });
    // The second member has their own five.
    expect(await quota.view(secondIn)).toMatchObject({ used: 0, limit: FREE_DAILY_LIMIT, canProcess: true });
    expect(await uploads.create(upload(secondIn), await quota.policy(secondIn))).not.toBeNull();
  });

  it('counts a member\'s uploads of this period per uploader, a unit given back not counted', async () => {
    const [owner, member] = [await person(), await person()];
    const team = await teamWorkspace(database.db, owner, [{ userId: member, role: 'member' }]);
    await subscribeWorkspace(database.db, team, 'starter');
    const ownerIn = { userId: owner, anonId: null, workspace: teamScope(team, 'owner') };
    const memberIn = { userId: member, anonId: null, workspace: teamScope(team, 'member') };
    const policy = await quota.policy(ownerIn);
    await uploads.create(upload(ownerIn), policy);
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await uploads.create(upload(memberIn), await quota.policy(memberIn)))!);
    await uploads.cancel(memberIn, made[0]!.id);
    // The member's uploads in their own workspace are not the team's.
    await uploads.create(upload({ userId: member, anonId: null }), await quota.policy({ userId: member, anonId: null }));
    const use = await quota.useByMember(team, policy.period.key);
    expect(use.map((m) => [m.userId, m.role, m.units])).toEqual([
      [owner, 'owner', 1],
      [member, 'member', 2],
    ]);
    expect(await quota.view(ownerIn)).toMatchObject({ used: 3 });
  });
});
