import { z } from 'zod';
import { laneSchema } from './lane.js';

/** One BullMQ queue carries both lanes; the lane sets the job's priority. */
export const RECEIPT_QUEUE = 'receipts';
export const RECEIPT_JOB = 'extract-receipt';

/**
 * Job payloads carry ids only; everything else is read from PostgreSQL. `requestId` is the id
 * of the HTTP request that queued the job, so the worker's log lines join the api's.
 */
export const receiptJobSchema = z.object({ uploadId: z.uuid(), lane: laneSchema, requestId: z.string().max(128).optional() });
export type ReceiptJob = z.infer<typeof receiptJobSchema>;

/** Housekeeping jobs (the retention sweep) run on a queue of their own, beside the receipts. */
export const MAINTENANCE_QUEUE = 'maintenance';
export const PURGE_ORIGINALS_JOB = 'purge-originals';
/** Deletes Idempotency-Keys past their 24 hours, and the exports they kept. */
export const PRUNE_IDEMPOTENCY_KEYS_JOB = 'prune-idempotency-keys';

/** Webhook deliveries: a queue of their own, so a slow receiver never waits behind (or holds up) a receipt. */
export const WEBHOOK_QUEUE = 'webhooks';
export const WEBHOOK_DELIVERY_JOB = 'deliver-webhook';
/** The delivery's row holds its endpoint, body and attempts; the job names it only. */
export const webhookJobSchema = z.object({ deliveryId: z.uuid() });
export type WebhookJob = z.infer<typeof webhookJobSchema>;

/** Redis pub/sub channel names (under the deployment's key prefix). */
export const CHANNELS = {
  uploadEvents: 'upload-events',
  cancelRequests: 'cancel-requests',
} as const;
