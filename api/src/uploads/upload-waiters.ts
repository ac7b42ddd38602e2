import type { UploadBusMessage } from '@receipts/common';


/** Requests waiting (POST /api/ocr?wait=1) for an upload to end, woken by the event bus. */
export class UploadWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** Resolves when the upload ends or after `timeoutMs`, whichever comes first. */
  waitFor(id: string, timeoutMs: number): { done: Promise<void>; cancel(): void } {
    let wake!: () => void;
    const done = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const set = this.waiting.get(id) ?? new Set();
    set.add(wake);
    this.waiting.set(id, set);
    const timer = setTimeout(wake, timeoutMs);
    const cancel = () => {
      clearTimeout(timer);
      set.delete(wake);
      if (set.size === 0) this.waiting.delete(id);
      wake();
    };
    void done.then(cancel);
    return { done, cancel };
  }

  /** Shutting down: every waiting request answers now with the upload's current state. */
  releaseAll(): void {
    for (const set of [...this.waiting.values()]) for (const wake of [...set]) wake();
  }

  notify(message: UploadBusMessage): void {
    if (message.event === 'upload:completed' || message.event === 'upload:failed' || message.event === 'upload:cancelled') {
      for (const wake of this.waiting.get(message.payload.id) ?? []) wake();
    }
  }
}
