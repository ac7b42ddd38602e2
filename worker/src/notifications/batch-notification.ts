import { isSubscriptionActive } from '@receipts/common';
import type { BillingRepository, Logger, Mailer, UploadReadRepository } from '@receipts/infra';
import type { Redis } from 'ioredis';

/**
 * Members of a workspace with a paid plan get an e-mail when their last queued upload is done
 * (spec §6: premium has e-mail notifications). A short Redis key keeps two workers finishing the last two uploads
 * at once from both sending it.
 */
export async function notifyIfBatchDone(
  deps: { billing: BillingRepository; uploadReads: UploadReadRepository; mailer: Mailer; redis: Redis; prefix: string; publicUrl: string; log: Logger },
  upload: { userId: string | null; workspaceId: string | null },
): Promise<void> {
  const { userId, workspaceId } = upload;
  if (!userId || !workspaceId) return;
  const { billing, uploadReads, mailer, redis, prefix, publicUrl } = deps;
  const subscriber = await billing.subscriber(userId, workspaceId);
  if (!subscriber || !isSubscriptionActive(subscriber, new Date())) return;
  if ((await uploadReads.activeCount(userId)) > 0) return;
  const first = await redis.set(`${prefix}:batch-mail:${userId}`, '1', 'EX', 60, 'NX');
  if (first !== 'OK') return;
  await mailer.send({
    to: subscriber.email,
    subject: 'Your receipts are ready',
    text: `All the receipts you uploaded have been processed.\n\nReview them and download your Excel workbook: ${publicUrl}/dashboard\n`,
  });
}
