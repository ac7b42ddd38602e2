import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { lowerProcess } from '../process/background-priority.js';
import { LstmTessdata } from './tessdata.js';
import { knownPixels } from '../page/page-pixels.js';
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
 * The tesseract program installed on the host. It reads the models tesseract.js reads (the npm
 * language packages, their LSTM parts: LstmTessdata), so both backends give the same fields.
 * Each process stays up and reads page after page (StreamingTesseract), so tesseract's start-up
 * (loading the models: about 0.13 CPU-s) is paid once per process, not once per page; measured
 * on 10 SROIE scans, 0.57 CPU-s a page against 0.70 with a process a page (tesseract.js: 0.86).
 * Each process gets one thread (`OMP_THREAD_LIMIT=1`; the job slots are the parallelism) and
 * runs at BACKGROUND_NICE like tesseract.js's threads; at most `size` pages are read at once, and
 * at most `size` processes live, one per language set, the idle one used longest ago making way.
 */
export class NativeTesseract implements TesseractReader {
  readonly backend = 'native';
  private readonly tessdata: LstmTessdata;
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** Processes between pages, the one used last at the end. */
  private idle: StreamingTesseract[] = [];
  private readonly busy = new Set<StreamingTesseract>();
  private pages: PageFiles | null = null;
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
    this.pages ??= new PageFiles();
    await this.acquire(signal);
    const key = langs.join('+');
    const reader = this.take(key);
    this.busy.add(reader);
    try {
      return parseTesseractTsv(await reader.read(await this.pages.write(image), timeoutMs, signal));
    } finally {
      this.busy.delete(reader);
      if (reader.alive && !this.closed) this.idle.push(reader);
      this.running--;
      // Every waiting page looks again: the first may have been cancelled since it was woken.
      for (const wake of this.waiting.splice(0)) wake();
    }
  }

  /** An idle process reading `key`, or a new one (making way for it when `size` are up). */
  private take(key: string): StreamingTesseract {
    this.idle = this.idle.filter((p) => p.alive);
    const same = this.idle.findLastIndex((p) => p.key === key);
    if (same >= 0) return this.idle.splice(same, 1)[0]!;
    if (this.busy.size + this.idle.length >= this.size) this.idle.shift()?.kill();
    const { psm, oem, dpi } = TESSERACT_READING;
    const args = ['-', 'stdout', '--tessdata-dir', this.tessdata.dir, '--psm', String(psm), '--oem', String(oem), '--dpi', String(dpi), '-l', key];
    // TSV by its variable, not the `tsv` config file, which only tesseract's own data folder holds;
    // page paths read from stdin one at a time, each page answered before the next is asked for.
    args.push('-c', 'tessedit_create_tsv=1', '-c', 'stream_filelist=1');
    return new StreamingTesseract(key, this.binary, args, this.pages!.blank);
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

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.waiting.splice(0)) wake();
    for (const reader of [...this.idle.splice(0), ...this.busy]) reader.kill();
    await this.pages?.remove();
  }
}

/** The pages handed to tesseract by path: one file each, in a folder of this reader's own. */
class PageFiles {
  private readonly dir = mkdtempSync(path.join(os.tmpdir(), 'receipts-tesseract-'));
  private count = 0;
  /** A blank page read after every page: its first row says the page before it is complete. */
  readonly blank = path.join(this.dir, 'blank.pgm');

  constructor() {
    // An 8 × 8 white greymap (leptonica takes a file of fewer than 12 bytes for a truncated one).
    writeFileSync(this.blank, Buffer.concat([Buffer.from('P5\n8 8\n255\n'), Buffer.alloc(64, 0xff)]));
  }

  /** The page as a PNM file when its pixels are at hand (tesseract then decodes nothing), else as encoded. */
  async write(image: Buffer): Promise<string> {
    this.count += 1;
    const file = path.join(this.dir, `page-${this.count}`);
    const pixels = await knownPixels(image);
    if (pixels?.channels === 1 || pixels?.channels === 3) {
      const header = Buffer.from(`${pixels.channels === 1 ? 'P5' : 'P6'}\n${pixels.width} ${pixels.height}\n255\n`);
      // Header and pixels written one after the other: no copy of the page to join them.
      await writeFile(file, [header, pixels.data]);
    } else {
      await writeFile(file, image);
    }
    return file;
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * One tesseract process reading a page whenever its path is written to stdin (`stream_filelist`),
 * its TSV written and flushed per page. TSV has no end-of-page mark, so each page is followed by
 * the blank page: the blank's first row (level 1, the next page number) closes the page before.
 * Pages are numbered from 1 in the process's life: the k-th page read is 2k − 1, its blank 2k.
 */
class StreamingTesseract {
  private readonly child: ChildProcess;
  private pagesAsked = 0;
  private pending: { page: number; rows: string[]; bytes: number; resolve(tsv: string): void; reject(err: unknown): void } | null = null;
  private partial = '';
  private stderr = '';
  private exited: string | null = null;

  constructor(
    readonly key: string,
    binary: string,
    args: string[],
    private readonly blank: string,
  ) {
    this.child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
    // Below the api, as tesseract.js's threads run; where not allowed, at the worker's priority.
    lowerProcess(this.child.pid);
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => this.onOutput(chunk));
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-MAX_ERROR_BYTES);
    });
    // A process that dies before reading its input breaks the pipe: its exit says why.
    this.child.stdin!.on('error', () => undefined);
    this.child.on('error', (err) => this.end(err.message, err));
    this.child.on('close', (code, killedBy) => this.end(killedBy ? `was killed (${killedBy})` : `exited ${code}`));
  }

  get alive(): boolean {
    return this.exited === null;
  }

  /** The TSV rows of the page at `file` (deleted afterwards). */
  read(file: string, timeoutMs: number, signal: AbortSignal): Promise<string> {
    const page = this.pagesAsked + 1;
    this.pagesAsked += 2;
    const result = new Promise<string>((resolve, reject) => {
      // Cancelled while the page was being written: the abort event has fired already.
      if (signal.aborted) return reject(signal.reason);
      if (!this.alive) return reject(new Error(`tesseract ${this.exited}: ${lastLines(this.stderr)}`));
      this.pending = { page, rows: [], bytes: 0, resolve, reject };
      this.child.stdin!.write(`${file}\n${this.blank}\n`);
    });
    const timer = setTimeout(() => this.fail(new TesseractTimeoutError(timeoutMs)), timeoutMs);
    const onAbort = () => this.fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    return result.finally(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      this.pending = null;
      void rm(file, { force: true }).catch(() => undefined); // a leftover page goes with the folder at close
    });
  }

  /** Ends the process; it counts as gone at once (its exit is reported later), so it is never handed a page again. */
  kill(): void {
    this.exited ??= 'was killed (SIGKILL)';
    this.child.kill('SIGKILL');
  }

  /** Gives up the page being read; the process goes with it (it may be stuck in the page). */
  private fail(reason: unknown): void {
    this.pending?.reject(reason);
    this.pending = null;
    this.kill();
  }

  private onOutput(chunk: string): void {
    const text = this.partial + chunk;
    const rows = text.split('\n');
    this.partial = rows.pop()!;
    for (const row of rows) {
      const pending = this.pending;
      if (!pending) continue;
      const tab = row.indexOf('\t');
      const pageNumber = Number(row.slice(tab + 1, row.indexOf('\t', tab + 1)));
      if (pageNumber === pending.page) {
        pending.bytes += row.length;
        if (pending.bytes > MAX_OUTPUT_BYTES) return this.fail(new Error('tesseract wrote more than a page of text; the page was given up'));
        pending.rows.push(row);
      } else if (pageNumber === pending.page + 1) {
        pending.resolve(pending.rows.join('\n'));
        this.pending = null;
      }
    }
  }

  private end(how: string, err?: Error): void {
    this.exited ??= how;
    this.pending?.reject(err ?? new Error(`tesseract ${how}: ${lastLines(this.stderr)}`));
    this.pending = null;
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
