import { progressOf, type PipelineStep } from '@receipts/common';
import { ABORT_REASONS, ownerRoom, type Logger, type UploadEventBus, type UploadRepository } from '@receipts/infra';

/**
 * Where a job's steps are written and emitted, and what stops its run. A step's write runs while
 * the next step works (the OCR slot does not wait for the database and Redis eight times a
 * receipt); the next step, or the save, waits for it first, so writes stay in order and a
 * cancellation or an outage it finds stops the run one step later at most.
 */
export class StepProgress {
  /** Follows the worker's signal, and also fires when a progress write finds the upload no longer processing (cancelled while the cancel message was still on its way). */
  readonly signal: AbortSignal;
  private readonly control = new AbortController();
  private written: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: { uploads: Pick<UploadRepository, 'progress'>; bus: UploadEventBus; log: Logger },
    private readonly upload: { id: string; userId: string | null; anonId: string | null },
    signal?: AbortSignal,
  ) {
    this.signal = signal ? AbortSignal.any([signal, this.control.signal]) : this.control.signal;
  }

  /** Stops the run from within, with one of ABORT_REASONS. */
  abort(reason: string): void {
    this.control.abort(reason);
  }

  /** Why the run was stopped; undefined while it was not. */
  abortReason(): unknown {
    return this.signal.aborted ? this.signal.reason : undefined;
  }

  /** The pipeline's step callback: waits for the last step's write, then starts this one's. */
  readonly report = async (step: PipelineStep): Promise<void> => {
    await this.settled();
    this.written = this.write(step);
    // Awaited by the next step; until then a failure must not count as unhandled.
    this.written.catch(() => undefined);
  };

  /** Waits for the last step's write; throws when it, or anything else, stopped the run. */
  async settled(): Promise<void> {
    await this.written;
    this.signal.throwIfAborted();
  }

  /**
   * Waits for a write still running before a failure is judged. Its own failure is not lost: a
   * cancellation it found is in `signal`, and an outage fails the recording after it too.
   */
  async drained(): Promise<void> {
    await this.written.catch(() => undefined);
  }

  private async write(step: PipelineStep): Promise<void> {
    const { uploads, bus, log } = this.deps;
    const progress = progressOf(step);
    if (!(await uploads.progress(this.upload.id, progress, step))) {
      this.abort(ABORT_REASONS.cancel);
      return;
    }
    // Live progress only: the database row above is the state, so a Redis hiccup here must
    // not throw away the work done so far. (Not also on the BullMQ job: nothing reads it there,
    // and it cost a script and a stream entry in Redis eight times a receipt.)
    await bus
      .publish(ownerRoom(this.upload), 'upload:progress', { id: this.upload.id, progress, step })
      .catch((err: unknown) => log.warn({ err: (err as Error).message }, 'progress not published'));
  }
}
