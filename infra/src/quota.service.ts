import {
  actingWorkspace,
  chargedAddress,
  isEmailVerified,
  quotaTerms,
  quotaUsed,
  quotaView,
  type MemberUse,
  type QuotaAsker,
  type QuotaTerms,
  type QuotaView,
} from '@receipts/common';
import { and, eq, gt, sql, type Placeholder } from 'drizzle-orm';
import type { Database, Executor } from './db/database.js';
import { hasSqlState } from './error-chain.js';
import { ownerRoom, type UploadEventBus } from './upload-event-bus.js';
import { quotaUsage, subscriptions, uploads, users, workspaceMembers, type QuotaCharge, type SubscriptionRow } from './db/schema.js';

/** Who is asking: an account, or an anonymous session seen from a client address. */
export type QuotaOwner = QuotaAsker;

/** The quota terms of an owner (quota.rules.ts), with the account facts the api shows beside them. */
export interface QuotaPolicy extends QuotaTerms {
  signedIn: boolean;
  subscription: SubscriptionRow | null;
}

/**
 * Quotas' storage: the facts the terms are decided by (quotaTerms in common) and the units used.
 * A unit is reserved atomically with its upload and returned at most once (both in
 * upload.repository.ts).
 */
export class QuotaService {
  private usageStatement: { execute(values: { wanted: string }): Promise<Array<{ subject: string; period: string; used: number }>> } | undefined;

  constructor(
    private readonly db: Database,
    /** ADMIN_EMAILS: an admin candidate counts as unconfirmed until a link proves its address. */
    private readonly adminEmails: readonly string[],
  ) {}

  /** The terms of an owner: an account's are decided by the plan of the workspace it acts in, and its address. */
  async policy(owner: QuotaOwner, now = new Date()): Promise<QuotaPolicy> {
    const workspace = actingWorkspace(owner);
    if (!owner.userId || !workspace) return { ...quotaTerms(owner, null, now), signedIn: false, subscription: null };
    const [row] = await this.db
      .select({ user: users, subscription: subscriptions })
      .from(users)
      .leftJoin(subscriptions, eq(subscriptions.workspaceId, workspace.id))
      .where(eq(users.id, owner.userId));
    const subscription = row?.subscription ?? null;
    const account = row ? { subscription, confirmed: isEmailVerified(row.user, this.adminEmails) } : null;
    return { ...quotaTerms(owner, account, now), signedIn: true, subscription };
  }

  async view(owner: QuotaOwner, now = new Date()): Promise<QuotaView> {
    return (await this.views([owner], now))[0]!;
  }

  /** The figures of several owners, their units read in one statement. */
  async views(owners: readonly QuotaOwner[], now = new Date()): Promise<QuotaView[]> {
    const policies = await Promise.all(owners.map((owner) => this.policy(owner, now)));
    const wanted = policies.flatMap((policy) => policy.subjects.map((subject) => ({ subject, period: policy.period.key })));
    const rows = wanted.length === 0 ? [] : await this.usage().execute({ wanted: JSON.stringify(wanted) });
    const used = new Map(rows.map((row) => [`${row.subject}\n${row.period}`, row.used]));
    return policies.map((policy) => {
      const most = quotaUsed(policy.subjects.map((subject) => used.get(`${subject}\n${policy.period.key}`) ?? 0));
      return quotaView(most, policy.limit, policy.period.resetsAt);
    });
  }

  /**
   * The units a workspace's uploads took in the quota period `periodKey`, per uploader: every
   * member (none used: 0), owner first, then by when they joined, and after them anyone who
   * uploaded there in the period and has left since (`role` null; `userId` null too when the
   * account is gone). A unit given back (a cancelled or failed upload) is not counted.
   */
  async useByMember(workspaceId: string, periodKey: string): Promise<MemberUse[]> {
    const inPeriod = JSON.stringify([{ period: periodKey }]);
    const result = await this.db.execute(sql`
      WITH used AS (
        SELECT ${uploads.userId} AS user_id, count(*)::int AS units FROM ${uploads}
        WHERE ${uploads.workspaceId} = ${workspaceId} AND NOT ${uploads.quotaRefunded} AND ${uploads.quotaCharges} @> ${inPeriod}::jsonb
        GROUP BY ${uploads.userId}
      ),
      members AS (
        SELECT ${workspaceMembers.userId} AS user_id, ${workspaceMembers.role} AS role, ${workspaceMembers.createdAt} AS joined
        FROM ${workspaceMembers} WHERE ${workspaceMembers.workspaceId} = ${workspaceId}
      )
      SELECT coalesce(members.user_id, used.user_id) AS "userId", ${users.email} AS "email", ${users.username} AS "username",
             members.role AS "role", coalesce(used.units, 0)::int AS "units"
      FROM members FULL JOIN used ON used.user_id = members.user_id
      LEFT JOIN ${users} ON ${users.id} = coalesce(members.user_id, used.user_id)
      ORDER BY members.role IS NULL, members.role <> 'owner', members.joined, ${users.email}`);
    return (result as unknown as { rows: MemberUse[] }).rows;
  }

  /** The units used of any (subject, period) pairs, given as JSON: prepared once, it runs after every upload. */
  private usage() {
    this.usageStatement ??= this.db
      .select({ subject: quotaUsage.subject, period: quotaUsage.period, used: quotaUsage.used })
      .from(quotaUsage)
      .where(
        sql`(${quotaUsage.subject}, ${quotaUsage.period}) in (select subject, period from jsonb_to_recordset(${sql.placeholder('wanted')}::jsonb) as wanted(subject text, period text))`,
      )
      .prepare('quota_usage_of');
    return this.usageStatement;
  }
}

/**
 * One conditional upsert for all subjects: a unit taken from each that has room; the rows
 * returned are those subjects. Values or placeholders of a prepared statement.
 */
function takeUnits(db: Executor, subjects: ReadonlyArray<string | Placeholder>, period: string | Placeholder, limit: number | Placeholder) {
  return db
    .insert(quotaUsage)
    .values(subjects.map((subject) => ({ subject, period, used: 1 })))
    .onConflictDoUpdate({
      target: [quotaUsage.subject, quotaUsage.period],
      set: { used: sql`${quotaUsage.used} + 1` },
      setWhere: sql`${quotaUsage.used} < ${limit}`,
    })
    .returning({ used: quotaUsage.used });
}

const chargesOf = (policy: Pick<QuotaPolicy, 'subjects' | 'period'>): QuotaCharge[] => policy.subjects.map((subject) => ({ subject, period: policy.period.key }));

/**
 * Takes one unit for every subject inside `tx`, or none: returns null when any subject is at
 * its limit (the caller rolls `tx` back). Concurrent reservations count exactly in a single
 * round trip. Only the upload repository calls it: a unit is always taken with its upload.
 */
export async function reserveQuota(tx: Executor, policy: Pick<QuotaPolicy, 'subjects' | 'period' | 'limit'>): Promise<QuotaCharge[] | null> {
  const rows = await takeUnits(tx, policy.subjects, policy.period.key, policy.limit);
  if (rows.length < policy.subjects.length) return null;
  return chargesOf(policy);
}

/** PostgreSQL's division_by_zero: how a statement carrying a quota reservation fails when a subject had no room. */
const NO_ROOM = '22012';

/**
 * The same reservation inside the statement that records what it pays for (the upload's
 * insert), for a prepared statement: `reserved` is a CTE to add to that statement and `charges`
 * the value of its quota_charges column, both with placeholders that `reservationValues` fills
 * for a policy of `subjectCount` subjects. When a subject had no room, `charges` divides by
 * zero, which fails the whole statement, the units it took included: one statement, one round
 * trip, no transaction.
 */
export function quotaReservation(db: Database, subjectCount: number) {
  const subjects = Array.from({ length: subjectCount }, (_, i) => sql.placeholder(`quotaSubject${i}`));
  const taken = takeUnits(db, subjects, sql.placeholder('quotaPeriod'), sql.placeholder('quotaLimit'));
  const reserved = db.$with('quota_reserved', { used: quotaUsage.used }).as(taken.getSQL());
  const charges = sql<QuotaCharge[]>`(select case when count(*) = ${sql.raw(String(subjectCount))} then ${sql.placeholder('quotaCharges')}::jsonb else to_jsonb(1 / (count(*) * 0)) end from ${reserved})`;
  return { reserved, charges };
}

/** The placeholder values of a quotaReservation for `policy`. */
export function reservationValues(policy: Pick<QuotaPolicy, 'subjects' | 'period' | 'limit'>): Record<string, unknown> {
  const values: Record<string, unknown> = { quotaPeriod: policy.period.key, quotaLimit: policy.limit, quotaCharges: JSON.stringify(chargesOf(policy)) };
  policy.subjects.forEach((subject, i) => (values[`quotaSubject${i}`] = subject));
  return values;
}

/** Whether a statement made with quotaReservation failed for want of room. */
export const isQuotaRefusal = (err: unknown): boolean => hasSqlState(err, NO_ROOM);

/** Gives `charges` back; the upload repository calls it once per upload (refund-once lives there). */
export async function releaseQuota(tx: Executor, charges: readonly QuotaCharge[]): Promise<void> {
  for (const charge of charges) {
    await tx
      .update(quotaUsage)
      .set({ used: sql`${quotaUsage.used} - 1` })
      .where(and(eq(quotaUsage.subject, charge.subject), eq(quotaUsage.period, charge.period), gt(quotaUsage.used, 0)));
  }
}

/**
 * The quota owner of an upload: its uploader in the upload's workspace (whose plan decides the
 * quota), with the client address its charge was counted under (anonymous or unconfirmed). The
 * role is the least one: no quota depends on it.
 */
export function quotaOwnerOfUpload(upload: { userId: string | null; anonId: string | null; workspaceId: string | null; quotaCharges: QuotaCharge[] }): QuotaOwner {
  const clientIp = chargedAddress(upload.quotaCharges.map((c) => c.subject));
  const workspace = upload.userId && upload.workspaceId ? { id: upload.workspaceId, role: 'member' as const, personal: upload.workspaceId === upload.userId } : null;
  return { userId: upload.userId, anonId: upload.anonId, clientIp, workspace };
}

/** How long announcements gather before their figures are read together. */
export const ANNOUNCE_GATHER_MS = 25;

/**
 * Tells owners' tabs their quota figures after a unit was taken, read after the change (a figure
 * taken at reservation could arrive after a newer one: uploads made at once publish in any order).
 * Announcements gather for ANNOUNCE_GATHER_MS and are read together, every owner's in one
 * statement; one batch runs at a time, so a room's figures go out in the order they were read,
 * and one asked for while a batch runs goes in the next, read after it was asked for. A burst of
 * uploads, from one owner or from fifty, reads and publishes a few times instead of once per
 * upload, while the uploads are being accepted. Live only: a failure is reported to `failed`.
 */
export class QuotaAnnouncer {
  /** Rooms waiting for the next batch, each with its latest asker (whose client address counts for an anonymous quota). */
  private waiting = new Map<string, QuotaOwner>();
  private nextBatch: Promise<void> | null = null;
  private lastBatch: Promise<void> = Promise.resolve();

  constructor(
    private readonly quota: QuotaService,
    private readonly bus: UploadEventBus,
    private readonly failed: (err: unknown) => void,
  ) {}

  /** Puts `room` in the next batch; resolves once figures read after this call have gone out, or failed. */
  announce(owner: QuotaOwner, room: string): Promise<void> {
    this.waiting.set(room, owner);
    this.nextBatch ??= this.batch();
    return this.nextBatch;
  }

  private async batch(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ANNOUNCE_GATHER_MS));
    await this.lastBatch;
    const rooms = this.waiting;
    this.waiting = new Map();
    this.nextBatch = null;
    this.lastBatch = this.publish(rooms);
    return this.lastBatch;
  }

  private async publish(rooms: Map<string, QuotaOwner>): Promise<void> {
    try {
      const views = await this.quota.views([...rooms.values()]);
      await Promise.all([...rooms.keys()].map((room, i) => this.bus.publish(room, 'quota:updated', views[i]!)));
    } catch (err) {
      this.failed(err);
    }
  }
}

/** Tells the owner's tabs their new quota figures after an upload's unit came back. */
export async function notifyQuota(
  quota: QuotaService,
  bus: UploadEventBus,
  upload: { userId: string | null; anonId: string | null; workspaceId: string | null; quotaCharges: QuotaCharge[] },
): Promise<void> {
  await bus.publish(ownerRoom(upload), 'quota:updated', await quota.view(quotaOwnerOfUpload(upload)));
}
