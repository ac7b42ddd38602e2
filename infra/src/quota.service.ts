import {
  FREE_DAILY_LIMIT,
  billingPeriod,
  dailyPeriod,
  isSubscriptionActive,
  quotaView,
  type QuotaPeriod,
  type QuotaView,
} from '@receipts/common';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Database } from './db/database.js';
import { ownerRoom, type UploadEventBus } from './upload-event-bus.js';
import { quotaUsage, subscriptions, uploads, type QuotaCharge, type SubscriptionRow } from './db/schema.js';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Who is asking: an account, or an anonymous session seen from a client address. */
export interface QuotaOwner {
  userId: string | null;
  anonId: string | null;
  clientIp?: string | null;
}

export interface QuotaPolicy {
  /** Every subject must have room: an anonymous visitor is counted per session and per address. */
  subjects: string[];
  limit: number;
  period: QuotaPeriod;
  signedIn: boolean;
  subscription: SubscriptionRow | null;
  subscriptionActive: boolean;
}

/** Quotas: reserved atomically with the upload, returned exactly once when it is cancelled or fails. */
export class QuotaService {
  constructor(private readonly db: Database) {}

  async policy(owner: QuotaOwner, now = new Date()): Promise<QuotaPolicy> {
    if (owner.userId) {
      const [subscription = null] = await this.db.select().from(subscriptions).where(eq(subscriptions.userId, owner.userId));
      const active = isSubscriptionActive(subscription, now);
      return {
        subjects: [`user:${owner.userId}`],
        limit: active ? subscription!.receiptLimit : FREE_DAILY_LIMIT,
        period: active ? billingPeriod(subscription!.currentPeriodStart, subscription!.currentPeriodEnd) : dailyPeriod(now),
        signedIn: true,
        subscription,
        subscriptionActive: active,
      };
    }
    const subjects = [`anon:${owner.anonId}`];
    if (owner.clientIp) subjects.push(`ip:${owner.clientIp}`);
    return { subjects, limit: FREE_DAILY_LIMIT, period: dailyPeriod(now), signedIn: false, subscription: null, subscriptionActive: false };
  }

  async view(owner: QuotaOwner, now = new Date()): Promise<QuotaView> {
    const policy = await this.policy(owner, now);
    const rows = await this.db
      .select({ used: quotaUsage.used })
      .from(quotaUsage)
      .where(and(inArray(quotaUsage.subject, policy.subjects), eq(quotaUsage.period, policy.period.key)));
    const used = Math.max(0, ...rows.map((r) => r.used));
    return quotaView(used, policy.limit, policy.period.resetsAt);
  }

  /**
   * Takes one unit for every subject inside `tx`, or none: returns null when any subject is at
   * its limit. The conditional upsert makes concurrent reservations count exactly.
   */
  async reserve(tx: Tx, policy: QuotaPolicy): Promise<QuotaCharge[] | null> {
    const charges: QuotaCharge[] = [];
    for (const subject of policy.subjects) {
      const [row] = await tx
        .insert(quotaUsage)
        .values({ subject, period: policy.period.key, used: 1 })
        .onConflictDoUpdate({
          target: [quotaUsage.subject, quotaUsage.period],
          set: { used: sql`${quotaUsage.used} + 1` },
          setWhere: sql`${quotaUsage.used} < ${policy.limit}`,
        })
        .returning({ used: quotaUsage.used });
      if (!row) return null;
      charges.push({ subject, period: policy.period.key });
    }
    return charges;
  }

  /** Returns an upload's units; a second call for the same upload returns nothing. */
  async refund(uploadId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [upload] = await tx
        .update(uploads)
        .set({ quotaRefunded: true })
        .where(and(eq(uploads.id, uploadId), eq(uploads.quotaRefunded, false)))
        .returning({ charges: uploads.quotaCharges });
      if (!upload) return false;
      for (const charge of upload.charges) {
        await tx
          .update(quotaUsage)
          .set({ used: sql`${quotaUsage.used} - 1` })
          .where(and(eq(quotaUsage.subject, charge.subject), eq(quotaUsage.period, charge.period), gt(quotaUsage.used, 0)));
      }
      return upload.charges.length > 0;
    });
  }
}

/** The quota owner of an upload, with the client address its anonymous charge was counted under. */
export function quotaOwnerOfUpload(upload: { userId: string | null; anonId: string | null; quotaCharges: QuotaCharge[] }): QuotaOwner {
  const ip = upload.quotaCharges.find((c) => c.subject.startsWith('ip:'))?.subject.slice(3) ?? null;
  return { userId: upload.userId, anonId: upload.anonId, clientIp: ip };
}

/** Returns an upload's quota units (once) and tells its owner's tabs the new figures. */
export async function refundAndNotify(
  quota: QuotaService,
  bus: UploadEventBus,
  upload: { id: string; userId: string | null; anonId: string | null; quotaCharges: QuotaCharge[] },
): Promise<void> {
  if (!(await quota.refund(upload.id))) return;
  await bus.publish(ownerRoom(upload), 'quota:updated', await quota.view(quotaOwnerOfUpload(upload)));
}
