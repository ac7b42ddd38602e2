import { spawn, spawnSync } from 'node:child_process';
import { LstmTessdata } from './tessdata.js';
import {
  DEFAULT_PAGE_TIMEOUT_MS,
  TESSERACT_READING,
  tesseractPage,
  TesseractTimeoutError,
  type TesseractLineWords,
  type TesseractPage,
  type TesseractReader,
} from './tesseract.reader.js';

/** A page's TSV is a few hundred kilobytes at most; more is not a receipt's. */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** Enough of stderr to say why tesseract failed. */
const MAX_ERROR_BYTES = 8 * 1024;

/** What `tesseract --version` says, or why it could not be asked. */
export type NativeTesseractProbe = { ok: true; version: string } | { ok: false; reason: string };

/**
 * Asks the installed tesseract for its version (once, at start-up: a few milliseconds). Not
 * installed, not runnable or silent within 5 s: not ok, with the reason.
 */
export function probeNativeTesseract(binary = 'tesseract'): NativeTesseractProbe {
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 5_000, env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
  if (run.error || run.status !== 0) return { ok: false, reason: run.error ? `${binary}: ${run.error.message}` : `${binary} --version exited ${run.status}` };
  return { ok: true, version: (run.stdout || run.stderr).split('\n')[0]!.trim() };
}

/**
 * The tesseract program installed on the host, one process a page. It reads the models
 * tesseract.js reads (the npm language packages, their LSTM parts: LstmTessdata), so both
 * backends give the same fields. Its recognition is cheaper than tesseract.js's WebAssembly, but
 * each process pays tesseract's start-up again (measured on 10 SROIE pages: 1.06 CPU-s a page,
 * tesseract.js 0.90, of which start-up about 0.27).
 * Each process gets one thread (`OMP_THREAD_LIMIT=1`; the job slots are the parallelism), the
 * page as PNG on stdin and a deadline past which it is killed; at most `size` run at once, like
 * the tesseract.js pool's workers.
 */
export class NativeTesseract implements TesseractReader {
  readonly backend = 'native';
  private readonly tessdata: LstmTessdata;
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly children = new Set<ReturnType<typeof spawn>>();
  private closed = false;

  constructor(
    private readonly size: number,
    /** Every language a job may ask for. */
    installed: readonly string[],
    private readonly binary = 'tesseract',
  ) {
    this.tessdata = new LstmTessdata(installed);
  }

  async recognize(image: Buffer, langs: readonly string[], signal: AbortSignal, timeoutMs = DEFAULT_PAGE_TIMEOUT_MS): Promise<TesseractPage> {
    await this.tessdata.ready(langs);
    await this.acquire(signal);
    try {
      return parseTesseractTsv(await this.run(image, langs, signal, timeoutMs));
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private async acquire(signal: AbortSignal): Promise<void> {
    for (;;) {
      signal.throwIfAborted();
      if (this.closed) throw new Error('The OCR engine is closed.');
      if (this.running < this.size) {
        this.running++;
        return;
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          signal.removeEventListener('abort', wake);
          const at = this.waiting.indexOf(wake);
          if (at >= 0) this.waiting.splice(at, 1);
          resolve();
        };
        this.waiting.push(wake);
        signal.addEventListener('abort', wake, { once: true });
      });
    }
  }

  private run(image: Buffer, langs: readonly string[], signal: AbortSignal, timeoutMs: number): Promise<string> {
    const { psm, oem, dpi } = TESSERACT_READING;
    const args = ['stdin', 'stdout', '--tessdata-dir', this.tessdata.dir, '--psm', String(psm), '--oem', String(oem), '--dpi', String(dpi), '-l', langs.join('+')];
    // TSV by its variable, not the `tsv` config file, which only tesseract's own data folder holds.
    args.push('-c', 'tessedit_create_tsv=1');
    return new Promise((resolve, reject) => {
      const child = spawn(this.binary, args, {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      });
      this.children.add(child);
      const out: Buffer[] = [];
      let outBytes = 0;
      let err = '';
      let failure: unknown;
      const fail = (reason: unknown) => {
        failure ??= reason;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(() => fail(new TesseractTimeoutError(timeoutMs)), timeoutMs);
      const onAbort = () => fail(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (chunk: Buffer) => {
        outBytes += chunk.length;
        if (outBytes > MAX_OUTPUT_BYTES) fail(new Error('tesseract wrote more than a page of text; the page was given up'));
        else out.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (err.length < MAX_ERROR_BYTES) err += chunk.toString('utf8');
      });
      // A process that dies before reading all of its input breaks the pipe: its exit says why.
      child.stdin.on('error', () => undefined);
      child.on('error', (e) => fail(e));
      child.on('close', (code, killedBy) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.children.delete(child);
        if (failure !== undefined) reject(failure);
        else if (code !== 0) reject(new Error(`tesseract ${killedBy ? `was killed (${killedBy})` : `exited ${code}`}: ${lastLines(err)}`));
        else resolve(Buffer.concat(out).toString('utf8'));
      });
      child.stdin.end(image);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.waiting.splice(0)) wake();
    for (const child of this.children) child.kill('SIGKILL');
  }
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' / ') || 'no message';
}

/**
 * tesseract's TSV (`level page block par line word left top width height conf text`) as lines
 * of words: a row of level 4 opens a line with its box, the rows of level 5 after it are its words.
 */
export function parseTesseractTsv(tsv: string): TesseractPage {
  const lines: TesseractLineWords[] = [];
  let line: TesseractLineWords | undefined;
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length < 12) continue;
    const level = Number(cells[0]);
    const [left, top, width, height, conf] = cells.slice(6, 11).map(Number) as [number, number, number, number, number];
    if (level === 4) {
      line = { box: { x: left, y: top, width, height }, words: [] };
      lines.push(line);
    } else if (level === 5 && line) {
      const text = cells.slice(11).join('\t').replace(/\r$/, '');
      if (text.trim()) line.words.push({ text, confidence: Math.max(0, conf) });
    } else if (level < 4) line = undefined;
  }
  return tesseractPage(lines);
}
