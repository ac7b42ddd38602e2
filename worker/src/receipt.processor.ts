import type { ReceiptJob } from '@receipts/common';
import {
  ABORT_REASONS,
  failUpload,
  metrics,
  toReceiptView,
  type FileStore,
  type JobOutcome,
  type JobRun,
  type Logger,
  type MerchantRuleRepository,
  type UploadDuplicateRepository,
  type UploadFailureDeps,
  type UploadReadRepository,
  type UploadRow,
} from '@receipts/infra';
import { failureOutcome, outcomeOfError } from './job/failure-outcome.rule.js';
import { announce, claim, complete, readOriginal, runPipeline, storePictures } from './job/receipt-job.steps.js';
import { StepProgress } from './job/step-progress.js';
import type { PipelineRunner } from './pipeline/pipeline.runner.js';

export interface ProcessorDeps extends UploadFailureDeps {
  uploadReads: Pick<UploadReadRepository, 'exists'>;
  duplicates: Pick<UploadDuplicateRepository, 'refreshDuplicateFlags'>;
  files: FileStore;
  /** The owner's learned rules, applied to the receipt before it is written. */
  rules: Pick<MerchantRuleRepository, 'forWorkspace'>;
  /** Runs the pipeline with the upload's engine: the one a re-extraction asked for, else the configured default. */
  pipeline: PipelineRunner;
  log: Logger;
  /** Sends the "receipts ready" e-mail to a member of a workspace with a paid plan when their batch is done. */
  notifyBatchDone: (upload: Pick<UploadRow, 'userId' | 'workspaceId'>) => Promise<void>;
  /**
   * The most one run of a job may take. Every step has its own bound; this one catches what no
   * step foresaw, so no upload stays "processing" while its lock is kept alive.
   */
  jobTimeoutMs: number;
}

const DONE: JobOutcome = { kind: 'done' };

/** The `outcome` label of the job duration metric. */
const OUTCOME_LABEL: Record<JobOutcome['kind'], string> = {
  done: 'completed',
  cancelled: 'cancelled',
  'handed-back': 'handed_back',
  'lock-lost': 'lock_lost',
  'wait-for-services': 'waiting_for_services',
  retry: 'retry',
  failed: 'failed',
};

/**
 * Processes one upload, and says how its run ended (the queue module tells BullMQ). Idempotent
 * per upload id: a job re-run after a crash starts over, never writes a second receipt, and
 * leaves an upload that already ended untouched.
 */
export function createReceiptProcessor(deps: ProcessorDeps) {
  return async function processReceipt(run: JobRun<ReceiptJob>): Promise<JobOutcome> {
    const { uploadId, lane, requestId } = run.data;
    const log = deps.log.child({ uploadId, jobId: run.id, requestId, attempt: run.attempt });
    metrics.jobsActive.inc();
    const started = performance.now();
    const outcome = await processOnce(deps, run, log).catch(outcomeOfError);
    if (outcome.kind === 'wait-for-services') log.warn({ err: (outcome.error as Error).message }, 'database or Redis unavailable; the job tries again shortly');
    metrics.jobsActive.dec();
    if (outcome.kind === 'done') metrics.jobsCompleted.inc({ lane });
    if (outcome.kind === 'failed') metrics.jobsFailed.inc({ lane });
    if (outcome.kind === 'retry') metrics.jobsRetried.inc({ lane });
    if (outcome.kind === 'handed-back') metrics.jobsHandedBack.inc({ reason: 'shutdown' });
    if (outcome.kind === 'lock-lost') metrics.jobsHandedBack.inc({ reason: 'lock_lost' });
    metrics.jobDuration.observe({ lane, outcome: OUTCOME_LABEL[outcome.kind] }, (performance.now() - started) / 1000);
    return outcome;
  };
}

/** The steps, in order; a step that throws ends the run with the outcome its failure comes to. */
async function processOnce(deps: ProcessorDeps, run: JobRun<ReceiptJob>, log: Logger): Promise<JobOutcome> {
  const { uploadId, requestId } = run.data;
  const upload = await claim(deps, uploadId, log);
  if (!upload) return DONE;
  const progress = new StepProgress(deps, upload, run.signal);
  const deadline = setTimeout(() => progress.abort(ABORT_REASONS.timeout), deps.jobTimeoutMs);
  try {
    const original = await readOriginal(deps.files, uploadId);
    const result = await runPipeline(deps, upload, original, progress);
    await storePictures(deps.files, uploadId, result, progress, log);
    const stored = await complete(deps.uploads, uploadId, result);
    if (!stored) {
      log.info('upload was cancelled while saving; receipt discarded');
      return DONE;
    }
    // Recorded where the receipt is, before the lossy live events; it never throws.
    await deps.webhooks.emit(upload.userId, 'receipt.completed', { uploadId, receiptId: stored.id, filename: upload.filename, receipt: toReceiptView(stored) });
    await announce(deps, upload, stored, result, log);
    return DONE;
  } catch (caught) {
    // A step's write still running lands before the outcome is judged and recorded.
    await progress.drained();
    const outcome = failureOutcome(caught, progress.abortReason(), { ...run, reference: requestId ?? uploadId, jobTimeoutMs: deps.jobTimeoutMs });
    await recordOutcome(deps, uploadId, outcome, log);
    return outcome;
  } finally {
    clearTimeout(deadline);
  }
}

/** What an outcome asks of the upload: a run handed back puts it back in line, a failed one ends it for the user. */
async function recordOutcome(deps: ProcessorDeps, uploadId: string, outcome: JobOutcome, log: Logger): Promise<void> {
  if (outcome.kind === 'retry' || outcome.kind === 'failed') log.warn({ err: outcome.error, finalAttempt: outcome.kind === 'failed' }, 'receipt processing failed');
  // Hand the job back at once rather than waiting for its lock to lapse.
  if (outcome.kind === 'handed-back') await deps.uploads.handBack(uploadId);
  if (outcome.kind === 'failed') await failUpload(deps, uploadId, outcome.message);
}
