import { isSubscriptionActive } from '@receipts/common';
import { schema, type Database, type Logger, type Mailer } from '@receipts/infra';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { Redis } from 'ioredis';

const { uploads, users, subscriptions } = schema;

/**
 * Subscribers get an e-mail when their last queued upload is done (spec §6: premium has
 * e-mail notifications). A short Redis key keeps two workers finishing the last two uploads
 * at once from both sending it.
 */
export async function notifyIfBatchDone(
  deps: { db: Database; mailer: Mailer; redis: Redis; prefix: string; publicUrl: string; log: Logger },
  userId: string | null,
): Promise<void> {
  if (!userId) return;
  const { db, mailer, redis, prefix, publicUrl } = deps;
  const [row] = await db
    .select({ email: users.email, status: subscriptions.status, currentPeriodEnd: subscriptions.currentPeriodEnd })
    .from(users)
    .innerJoin(subscriptions, eq(subscriptions.userId, users.id))
    .where(eq(users.id, userId));
  if (!row || !isSubscriptionActive(row, new Date())) return;
  const [pending] = await db
    .select({ n: count() })
    .from(uploads)
    .where(and(eq(uploads.userId, userId), inArray(uploads.status, ['queued', 'processing'])));
  if (pending!.n > 0) return;
  const first = await redis.set(`${prefix}:batch-mail:${userId}`, '1', 'EX', 60, 'NX');
  if (first !== 'OK') return;
  await mailer.send({
    to: row.email,
    subject: 'Your receipts are ready',
    text: `All the receipts you uploaded have been processed.\n\nReview them and download your Excel workbook: ${publicUrl}/dashboard\n`,
  });
}
