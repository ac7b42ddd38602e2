import { processingFailedMessage } from '@receipts/common';
import { ABORT_REASONS, isServiceUnavailable, type JobOutcome } from '@receipts/infra';
import { EngineError } from '../ocr/ocr-engine.js';
import { UnreadableFileError } from '../page/unreadable-file.error.js';

/** While PostgreSQL or Redis is unreachable a job waits this long between tries, spending no attempt. */
export const UNAVAILABLE_RETRY_MS = 3_000;

/**
 * An error no step judged (claiming, recording the outcome): an outage is nobody's fault, so the
 * job waits it out instead of spending its attempts (claim, progress and save are all safe to run
 * again); anything else is a failed attempt.
 */
export function outcomeOfError(error: unknown): JobOutcome {
  return isServiceUnavailable(error) ? { kind: 'wait-for-services', delayMs: UNAVAILABLE_RETRY_MS, error } : { kind: 'retry', error };
}

export interface FailedRun {
  /** 1 on the first run. */
  attempt: number;
  attempts: number;
  /** What the user's message refers to, for the log line that says what went wrong. */
  reference: string;
  jobTimeoutMs: number;
}

/**
 * What a run that threw after its claim comes to. `abortReason` is why its signal fired, if it
 * did: a cancel, a shutdown or a lost lock leaves the upload as it is (the run that has the job
 * now claims it again); a run past its time is a failed attempt like any other (the steps it was
 * in say why, in the log).
 */
export function failureOutcome(caught: unknown, abortReason: unknown, run: FailedRun): JobOutcome {
  const timedOut = abortReason === ABORT_REASONS.timeout;
  if (abortReason !== undefined && !timedOut) {
    if (abortReason === ABORT_REASONS.lockLost) return { kind: 'lock-lost' };
    if (abortReason === ABORT_REASONS.shutdown) return { kind: 'handed-back' };
    return { kind: 'cancelled' };
  }
  const error = timedOut ? new Error(`${ABORT_REASONS.timeout} (${run.jobTimeoutMs} ms)`, { cause: caught }) : caught;
  if (isServiceUnavailable(error)) return outcomeOfError(error);
  const isFileFault = error instanceof UnreadableFileError;
  const engineFault = error instanceof EngineError ? error : null;
  const finalAttempt = isFileFault || engineFault?.final === true || run.attempt >= run.attempts;
  if (!finalAttempt) return { kind: 'retry', error };
  // A file fault is the user's to fix and says so, and so does an engine's failure (a model that
  // did not answer); anything else (a database error with its SQL, a crash) stays in the log, and
  // the user gets a reference to it.
  const message = isFileFault || engineFault ? (error as Error).message : processingFailedMessage(run.reference);
  return { kind: 'failed', message, error };
}
