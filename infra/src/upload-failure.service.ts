import { notifyQuota, type QuotaService } from './quota.service.js';
import { ownerRoom, type UploadEventBus } from './upload-event-bus.js';
import type { UploadRepository } from './upload.repository.js';
import type { WebhookEmitter } from './webhook-events.js';

/** What ending an upload as failed needs: its state, its owner's quota figures, the live events, the account's webhooks. */
export interface UploadFailureDeps {
  uploads: UploadRepository;
  quota: QuotaService;
  bus: UploadEventBus;
  webhooks: WebhookEmitter;
}

/**
 * Ends an upload as failed with a message the user can read, records its `receipt.failed`
 * webhooks, tells its tabs, and tells them their quota unit came back (nothing the user can use
 * came of it). Safe to call for an upload that already ended: it changes and announces nothing then.
 */
export async function failUpload(deps: UploadFailureDeps, uploadId: string, message: string): Promise<void> {
  const ended = await deps.uploads.fail(uploadId, message);
  if (!ended) return;
  // First, and never throwing: the live events below are lossy, the webhooks' rows are not.
  await deps.webhooks.emit(ended.upload.userId, 'receipt.failed', { uploadId, filename: ended.upload.filename, error: message });
  await deps.bus.publish(ownerRoom(ended.upload), 'upload:failed', { id: uploadId, error: message });
  if (ended.refunded) await notifyQuota(deps.quota, deps.bus, ended.upload);
}
