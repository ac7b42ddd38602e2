/** Where progress goes: a terminal gets a bar redrawn in place, anything else (a pipe, a log) a line per step. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const BAR_WIDTH = 24;

/** `[#########---------------]  3/8  label`, cut to the terminal's width. */
export function barLine(label: string, done: number, total: number, columns = 80): string {
  const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
  const line = `${label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${done}/${total}`;
  return line.length < columns ? line : line.slice(0, Math.max(0, columns - 1));
}

/**
 * Progress over `total` things under a label (uploading, processing): on a TTY one bar redrawn
 * with each step; elsewhere one plain line per step, which a log keeps readable.
 */
export class ProgressBar {
  private done = 0;

  constructor(
    private readonly stream: ProgressStream,
    private readonly label: string,
    private readonly total: number,
  ) {
    if (stream.isTTY) this.draw();
  }

  /** One more thing done; `note` names it (a file and what became of it). */
  tick(note: string): void {
    this.done = Math.min(this.total, this.done + 1);
    if (this.stream.isTTY) this.draw();
    else this.stream.write(`${this.label} ${this.done}/${this.total} ${note}\n`);
  }

  /** Ends the bar's line on a TTY, so what follows starts below it. */
  finish(): void {
    if (this.stream.isTTY) this.stream.write('\n');
  }

  private draw(): void {
    // \r back to the line's start, \x1b[K clears what a longer line left behind.
    this.stream.write(`\r${barLine(this.label, this.done, this.total, this.stream.columns)}\x1b[K`);
  }
}
