import { processingFailedMessage } from '@receipts/common';
import { failUpload, type ReceiptJobs, type UploadFailureDeps, type UploadReadRepository } from '@receipts/infra';

const BATCH = 200;

export interface RecoveryOptions {
  /** A queued upload untouched this long is checked against the queue. */
  queuedAfterMs: number;
  /**
   * A processing upload writes its row at every step; one silent this long has lost its worker
   * (or its job). Longer than any single step, so a live job is never taken twice.
   */
  processingAfterMs: number;
}

export interface RecoveryResult {
  requeued: number;
  failed: number;
}

/**
 * PostgreSQL is the record of every upload; Redis only carries the work. When the two disagree —
 * Redis restarted without persistence, or a job failed while its failure could not be written —
 * the upload is put right: its job is queued again (same id, so never twice), or its recorded
 * failure is written now (with the quota unit back). Safe to run from every worker at once.
 */
export async function recoverLostUploads(
  deps: UploadFailureDeps & { jobs: ReceiptJobs; uploadReads: Pick<UploadReadRepository, 'stale'> },
  options: RecoveryOptions,
  now = Date.now(),
): Promise<RecoveryResult> {
  const stale = await deps.uploadReads.stale(new Date(now - options.queuedAfterMs), new Date(now - options.processingAfterMs), BATCH);
  const result: RecoveryResult = { requeued: 0, failed: 0 };
  for (const upload of stale) {
    const { state } = await deps.jobs.state(upload.id);
    if (state === 'failed') {
      await failUpload(deps, upload.id, processingFailedMessage(upload.id));
      result.failed += 1;
      continue;
    }
    // Waiting, delayed or active jobs are on their way; anything else has lost its work.
    if (state !== 'missing' && state !== 'completed' && state !== 'unknown') continue;
    await deps.jobs.reenqueue({ uploadId: upload.id, lane: upload.lane });
    result.requeued += 1;
  }
  return result;
}
