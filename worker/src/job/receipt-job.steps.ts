import { sniffMimeType, USER_MESSAGES, type AcceptedMime } from '@receipts/common';
import {
  metrics,
  ownerRoom,
  receiptColumns,
  StoredFileMissingError,
  toReceiptView,
  type ExtractedReceipt,
  type FileStore,
  type Logger,
  type MerchantRuleRepository,
  type ReceiptRow,
  type UploadDuplicateRepository,
  type UploadEventBus,
  type UploadReadRepository,
  type UploadRepository,
  type UploadRow,
} from '@receipts/infra';
import { pagePicture } from '../document/page-picture.js';
import { UnreadableFileError } from '../page/unreadable-file.error.js';
import type { PipelineRunner } from '../pipeline/pipeline.runner.js';
import type { PipelineResult } from '../pipeline/receipt.pipeline.js';
import type { StepProgress } from './step-progress.js';

// The steps of a receipt job, in their order: claim → read original → run pipeline → store
// pictures → complete → announce. Each throws what stops the job; the processor judges it.

/**
 * Only a queued upload, or one a crashed worker left processing, may (re)start; null when there
 * is nothing to do.
 */
export async function claim(
  deps: { uploads: UploadRepository; uploadReads: Pick<UploadReadRepository, 'exists'>; files: FileStore },
  uploadId: string,
  log: Logger,
): Promise<UploadRow | null> {
  const upload = await deps.uploads.claim(uploadId);
  if (upload) return upload;
  // Deleted through another api process in the moment between its answer and its file's store:
  // that process's delete found no file, the file landed after it, and only this job still knows of it.
  if (!(await deps.uploadReads.exists(uploadId))) {
    await deps.files.delete(uploadId);
    log.info('upload was deleted; an original stored after the deletion is deleted too');
    return null;
  }
  log.info('upload already ended; nothing to do');
  return null;
}

export interface Original {
  bytes: Buffer;
  mimeType: AcceptedMime;
}

/** The stored file and what it is; one that is gone, or of no kind we read, is the user's to fix. */
export async function readOriginal(files: FileStore, uploadId: string): Promise<Original> {
  const bytes = await files.read(uploadId).catch((err: unknown) => {
    if (err instanceof StoredFileMissingError) throw new UnreadableFileError('The uploaded file is no longer stored. Please upload it again.');
    throw err;
  });
  const mimeType = sniffMimeType(bytes);
  if (!mimeType) throw new UnreadableFileError(USER_MESSAGES.unsupportedFile);
  return { bytes, mimeType };
}

/** The pipeline with the upload's engine and its owner's rules, each step reported as it starts. */
export async function runPipeline(
  deps: { rules: Pick<MerchantRuleRepository, 'forWorkspace'>; pipeline: PipelineRunner },
  upload: UploadRow,
  original: Original,
  progress: StepProgress,
): Promise<PipelineResult> {
  // An account's corrections become its rules; anonymous visitors have none.
  const rules = upload.workspaceId ? await deps.rules.forWorkspace(upload.workspaceId) : [];
  return deps.pipeline.run({ ...original, currencyCode: upload.currencyCode ?? undefined, rules }, upload.engine, progress.report, progress.signal);
}

/**
 * The pictures of the pages the review screen shows, stored once the row says "saving" (a late
 * progress write would find the upload no longer processing and take it for a cancellation), and
 * before the receipt, so a screen told it is done finds its picture. Without them the review
 * screen shows the fields alone: not a reason to fail the receipt.
 */
export async function storePictures(files: FileStore, uploadId: string, result: PipelineResult, progress: StepProgress, log: Logger): Promise<void> {
  await progress.report('saving');
  await progress.settled();
  await putPictures(files, uploadId, result.pictures).catch((err: unknown) => log.warn({ err }, 'page pictures not stored'));
}

/** One page at a time: a page's PNG can be tens of megabytes decoded. */
async function putPictures(files: FileStore, uploadId: string, pngs: readonly Buffer[]): Promise<void> {
  const pictures: Buffer[] = [];
  for (const png of pngs) pictures.push(await pagePicture(png));
  await files.putPages(uploadId, pictures);
}

/** Stores the receipt and completes the upload; null when it was cancelled meanwhile (the receipt is discarded). */
export async function complete(uploads: UploadRepository, uploadId: string, result: PipelineResult): Promise<ReceiptRow | null> {
  return uploads.complete(uploadId, extractedReceipt(result));
}

/** The receipt row a pipeline result makes. */
function extractedReceipt(result: PipelineResult): ExtractedReceipt {
  const { receipt, merchantRead, fullText, lines, fieldLines, readBy, pageTurns, issues, valid } = result;
  return {
    ...receiptColumns(receipt),
    merchantRead: merchantRead ?? null,
    quality: receipt.quality,
    rawText: fullText,
    lines,
    fieldLines,
    readBy: readBy ?? null,
    pageTurns,
    issues,
    valid,
  };
}

/**
 * Tells the owner's tabs, the metrics, the log and a finished batch's subscriber. Nothing here
 * fails the job: the receipt is stored and the upload completed.
 */
export async function announce(
  deps: { duplicates: Pick<UploadDuplicateRepository, 'refreshDuplicateFlags'>; bus: UploadEventBus; pipeline: PipelineRunner; notifyBatchDone: (upload: Pick<UploadRow, 'userId' | 'workspaceId'>) => Promise<void> },
  upload: UploadRow,
  stored: ReceiptRow,
  result: PipelineResult,
  log: Logger,
): Promise<void> {
  const duplicateOf = await deps.duplicates.refreshDuplicateFlags(upload.id).catch((err: unknown) => {
    log.warn({ err }, 'duplicate check failed');
    return null;
  });
  await deps.bus
    .publish(ownerRoom(upload), 'upload:completed', { id: upload.id, receipt: toReceiptView(stored), duplicateOf: duplicateOf ?? undefined })
    .catch((err: unknown) => log.warn({ err: (err as Error).message }, 'completion not published; clients see it on their next sync'));
  metrics.ocrDuration.observe({ engine: upload.engine ?? deps.pipeline.defaultEngine }, result.ocrMs / 1000);
  log.info({ ms: Date.now() - upload.startedAt!.getTime(), ocrMs: Math.round(result.ocrMs), rulesApplied: result.rulesApplied }, 'receipt stored');
  await deps.notifyBatchDone(upload).catch((err: unknown) => log.warn({ err }, 'batch notification failed'));
}
