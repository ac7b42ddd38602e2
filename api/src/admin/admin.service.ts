import { dailyPeriod, LANE_PRIORITY, type Lane } from '@receipts/common';
import { enqueueReceiptJob, schema, type Database, type ReceiptQueue } from '@receipts/infra';
import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { HttpError, notFound } from '../http-error.js';

const { users, subscriptions, uploads, quotaUsage } = schema;
const PAGE_SIZE = 50;

/** What the admin screen needs: users, failures, queue depth, and a way to retry a failed upload. */
export class AdminService {
  constructor(
    private readonly db: Database,
    private readonly queue: ReceiptQueue,
    private readonly jobAttempts: number,
    private readonly adminEmails: string[],
  ) {}

  async users(search: string | undefined, page: number) {
    const filter: SQL | undefined = search ? or(ilike(users.email, `%${search}%`), ilike(users.username, `%${search}%`)) : undefined;
    const today = dailyPeriod(new Date()).key;
    const rows = await this.db
      .select({
        id: users.id,
        email: users.email,
        username: users.username,
        userType: users.userType,
        createdAt: users.createdAt,
        plan: subscriptions.planId,
        status: subscriptions.status,
        currentPeriodStart: subscriptions.currentPeriodStart,
        uploads: sql<number>`(SELECT count(*)::int FROM ${uploads} WHERE ${uploads.userId} = ${users.id})`,
        failed: sql<number>`(SELECT count(*)::int FROM ${uploads} WHERE ${uploads.userId} = ${users.id} AND ${uploads.status} = 'failed')`,
        usedToday: sql<number>`coalesce((SELECT ${quotaUsage.used} FROM ${quotaUsage} WHERE ${quotaUsage.subject} = 'user:' || ${users.id} AND ${quotaUsage.period} = ${today}), 0)`,
        usedThisPeriod: sql<number>`coalesce((SELECT ${quotaUsage.used} FROM ${quotaUsage} WHERE ${quotaUsage.subject} = 'user:' || ${users.id} AND ${quotaUsage.period} = 'month:' || to_char(${subscriptions.currentPeriodStart} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), 0)`,
      })
      .from(users)
      .leftJoin(subscriptions, eq(subscriptions.userId, users.id))
      .where(filter)
      .orderBy(desc(users.createdAt))
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE);
    return rows.map(({ currentPeriodStart: _start, ...row }) => ({
      ...row,
      userType: row.userType === 'admin' || this.adminEmails.includes(row.email) ? 'admin' : 'user',
      plan: row.plan ?? 'free',
      status: row.status ?? 'free',
    }));
  }

  async setUserType(id: string, userType: 'admin' | 'user') {
    const [user] = await this.db.update(users).set({ userType, updatedAt: new Date() }).where(eq(users.id, id)).returning({ id: users.id, email: users.email, userType: users.userType });
    if (!user) throw notFound('User not found');
    return user;
  }

  async uploads(status: string | undefined, page: number) {
    return this.db
      .select({
        id: uploads.id,
        filename: uploads.filename,
        status: uploads.status,
        error: uploads.error,
        lane: uploads.lane,
        attempts: uploads.attempts,
        createdAt: uploads.createdAt,
        ownerEmail: users.email,
      })
      .from(uploads)
      .leftJoin(users, eq(users.id, uploads.userId))
      .where(status ? eq(uploads.status, status as never) : undefined)
      .orderBy(desc(uploads.createdAt))
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE);
  }

  async queues() {
    const [counts, perPriority] = await Promise.all([
      this.queue.getJobCounts('active', 'waiting', 'prioritized', 'delayed', 'completed', 'failed'),
      this.queue.getCountsPerPriority(Object.values(LANE_PRIORITY)),
    ]);
    const lanes = Object.fromEntries(
      (Object.entries(LANE_PRIORITY) as Array<[Lane, number]>).map(([lane, priority]) => [lane, { waiting: perPriority[String(priority)] ?? 0 }]),
    );
    const [byStatus] = await this.db.select({ n: count() }).from(uploads).where(eq(uploads.status, 'processing'));
    return { lanes, jobs: counts, processingUploads: byStatus?.n ?? 0 };
  }

  /**
   * Puts a failed upload back in its lane. An admin retry is on the house: no quota unit is
   * taken (a second failure returns none either, since the first already did).
   */
  async retry(id: string) {
    const [upload] = await this.db
      .update(uploads)
      .set({ status: 'queued', error: null, progress: 0, step: null, finishedAt: null, updatedAt: new Date() })
      .where(and(eq(uploads.id, id), eq(uploads.status, 'failed')))
      .returning();
    if (!upload) throw new HttpError(409, 'NOT_CANCELLABLE', 'Only a failed upload can be retried.');
    // The failed job keeps the upload's id in BullMQ; it goes before the new one is added.
    await (await this.queue.getJob(id))?.remove();
    await enqueueReceiptJob(this.queue, { uploadId: id, lane: upload.lane }, this.jobAttempts);
    return { id, status: 'queued' as const };
  }
}
