import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AcceptedMime } from '@receipts/common';
import { createLogger, decodeConfigSchema, type DecodeConfig, type Logger } from '@receipts/infra';
import { lowerProcess } from '../process/background-priority.js';
import { asBuffer } from '../process/cloned-bytes.js';
import { UnreadableFileError } from '../page/unreadable-file.error.js';
import { DECODE_MESSAGES } from './decode.limits.js';
import type { DecodedPages, DecodeReply, DecodeRequest } from './decode.protocol.js';

/** A decoder gets at least this long (times WALL_LIMIT_FACTOR) to start, whatever the per-file limit. */
const MIN_START_MS = 30_000;
/** How often a busy decoder's memory and CPU time are read: an allocation outruns the limit by at most this much time. */
const RSS_POLL_MS = 50;
/**
 * The time limit counts the decoder's CPU time: on a saturated host a decoder at background
 * priority may get a tenth of a core, and a file is not "too complex" for waiting its turn. Wall
 * time stops a decoder only at this many times the limit (where CPU time cannot be read: at the limit).
 */
const WALL_LIMIT_FACTOR = 6;

const here = fileURLToPath(import.meta.url);
// Under vitest the worker runs from its TypeScript sources; the child then needs tsx to load them.
const fromSources = here.endsWith('.ts');
const CHILD_ENTRY = path.join(path.dirname(here), fromSources ? 'decode.child.ts' : 'decode.child.js');

/** Linux reports process times in USER_HZ ticks, 100 per second on every architecture Node runs on. */
const MS_PER_TICK = 10;

/** CPU time a process has had, all its threads (pdfjs', sharp's, the garbage collector's), in ms, from /proc/<pid>/stat. */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'latin1');
  // After the command name (in parentheses, and free to hold spaces): state is field 3, utime and stime 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
}

/** Resident memory of a process in MB from /proc (Linux), or null where there is none. */
async function residentMb(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, 'latin1');
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : null;
}

interface Job {
  id: number;
  bytes: Buffer;
  mimeType: AcceptedMime;
  signal: AbortSignal;
  resolve(result: DecodedPages): void;
  reject(err: unknown): void;
}

/** One decoder process, started on first use and replaced after it is killed. */
interface Slot {
  child: ChildProcess | null;
  busy: boolean;
}

/**
 * Decodes untrusted files in a small pool of long-lived child processes, one file each at a
 * time, so no file can stall the event loop that serves /healthz and renews job locks. A file
 * that takes more than `DECODE_TIMEOUT_MS` of CPU time (or six times that in wall time) or whose
 * decoder grows past `DECODE_MAX_RSS_MB` resident (read from /proc: sharp's and the canvas'
 * pixels are native memory no heap limit sees) is killed with SIGKILL and fails as unreadable;
 * the next file gets a fresh process.
 */
export class DecodeSandbox {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private nextId = 1;
  /** No /proc to read a decoder's memory and CPU time from (not Linux). */
  private procUnavailable = false;
  private closed = false;

  constructor(
    private readonly limits: DecodeConfig,
    private readonly log: Logger,
  ) {
    this.slots = Array.from({ length: limits.DECODE_PROCESSES }, () => ({ child: null, busy: false }));
  }

  decode(bytes: Buffer, mimeType: AcceptedMime, signal: AbortSignal): Promise<DecodedPages> {
    signal.throwIfAborted();
    if (this.closed) return Promise.reject(new Error('the decoder pool is closed'));
    return new Promise<DecodedPages>((resolve, reject) => {
      // A job still waiting for a process leaves the queue when it is cancelled; the listener goes
      // with the job, so a signal that outlives many decodes (a bench's, a batch's) does not pile them up.
      const leaveQueue = (): void => {
        const at = this.queue.indexOf(job);
        if (at < 0) return;
        this.queue.splice(at, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', leaveQueue, { once: true });
      const settle = <T>(outcome: (value: T) => void) => (value: T) => {
        signal.removeEventListener('abort', leaveQueue);
        outcome(value);
      };
      const job: Job = { id: this.nextId++, bytes, mimeType, signal, resolve: settle(resolve), reject: settle(reject) };
      // A PDF waits behind no picture: its text (or its few pages) is read in a fraction of a photo's
      // decode, and a text PDF needs no OCR after it. Pictures keep their order among themselves.
      const firstPicture = mimeType === 'application/pdf' ? this.queue.findIndex((waiting) => waiting.mimeType !== 'application/pdf') : -1;
      if (firstPicture >= 0) this.queue.splice(firstPicture, 0, job);
      else this.queue.push(job);
      this.dispatch();
    });
  }

  /** Kills every decoder process; jobs in flight fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the decoder pool is closed'));
    await Promise.all(this.slots.map((slot) => (slot.child ? this.kill(slot, slot.child) : undefined)));
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.busy) continue;
      const job = this.queue.shift()!;
      slot.busy = true;
      this.run(slot, job)
        .then(job.resolve, job.reject)
        .finally(() => {
          slot.busy = false;
          this.dispatch();
        });
    }
  }

  private async run(slot: Slot, job: Job): Promise<DecodedPages> {
    const child = slot.child ?? (await this.startIn(slot));
    job.signal.throwIfAborted();
    const pid = child.pid!;
    const started = performance.now();
    // The decoder has run files before: this file's CPU time is what it adds.
    const cpuStart = this.procUnavailable ? null : await cpuMs(pid).catch(() => null);
    const limitMs = this.limits.DECODE_TIMEOUT_MS;
    let peakMb = 0;
    let usedMs = 0;
    const context = () => ({
      decoderPid: pid,
      mimeType: job.mimeType,
      bytes: job.bytes.length,
      ms: Math.round(performance.now() - started),
      cpuMs: Math.round(usedMs),
      peakRssMb: Math.round(peakMb),
    });

    return new Promise<DecodedPages>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(watch);
        child.off('message', onMessage);
        child.off('exit', onExit);
        job.signal.removeEventListener('abort', onAbort);
        outcome();
      };
      /** Kills the decoder (it may be stuck in native code: only SIGKILL is sure) and fails the job once it is gone. */
      const killFor = (err: unknown) => {
        settle(() => void this.kill(slot, child).then(() => reject(err)));
      };

      const onMessage = (reply: DecodeReply) => {
        if (reply.type === 'done' && reply.id === job.id) {
          settle(() => {
            this.log.debug(context(), 'file decoded');
            this.retireIfBloated(slot, child, peakMb);
            resolve(asBuffers(reply.result));
          });
        } else if (reply.type === 'failed' && reply.id === job.id) {
          settle(() => {
            this.log.info({ ...context(), err: reply.message, cause: reply.cause }, 'file could not be decoded');
            this.retireIfBloated(slot, child, peakMb);
            if (reply.unreadable) reject(new UnreadableFileError(reply.message));
            else reject(Object.assign(new Error(`decoder: ${reply.message}`), { stack: reply.stack }));
          });
        }
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        slot.child = null;
        if (this.closed) {
          settle(() => reject(new Error('the decoder pool is closed')));
          return;
        }
        // Died on its own mid-file (V8 heap limit, native crash, the kernel's OOM killer): the
        // file did it, so it fails as unreadable rather than being retried into the same end.
        this.log.error({ ...context(), code, signal }, 'decoder process died while reading a file');
        settle(() => reject(new UnreadableFileError(DECODE_MESSAGES.tooMuchMemory)));
      };
      const onAbort = () => killFor(job.signal.reason);

      const tooSlow = () => {
        this.log.warn({ ...context(), limitMs }, 'decoder killed: file took too long');
        killFor(new UnreadableFileError(job.mimeType === 'application/pdf' ? DECODE_MESSAGES.pdfTooSlow : DECODE_MESSAGES.fileTooSlow));
      };
      const timer = setTimeout(tooSlow, cpuStart === null ? limitMs : limitMs * WALL_LIMIT_FACTOR);
      const watch = setInterval(() => {
        if (this.procUnavailable) return;
        Promise.all([residentMb(pid), cpuStart === null ? null : cpuMs(pid)]).then(
          ([mb, cpu]) => {
            if (settled) return;
            if (cpu !== null && cpuStart !== null) usedMs = cpu - cpuStart;
            if (usedMs > limitMs) return tooSlow();
            if (mb === null) return;
            peakMb = Math.max(peakMb, mb);
            if (mb <= this.limits.DECODE_MAX_RSS_MB) return;
            this.log.warn({ ...context(), limitMb: this.limits.DECODE_MAX_RSS_MB }, 'decoder killed: file needed too much memory');
            killFor(new UnreadableFileError(DECODE_MESSAGES.tooMuchMemory));
          },
          (err: NodeJS.ErrnoException) => {
            // The process just exited (its exit handler fails the job), or this system has no
            // /proc: then wall time and the heap limit are the only guards.
            if (err.code === 'ENOENT' && process.platform === 'linux') return;
            this.procUnavailable = true;
            this.log.warn({ err: err.message }, 'cannot read decoder memory and CPU time; only wall-time and heap limits apply');
          },
        );
      }, RSS_POLL_MS);

      child.on('message', onMessage);
      child.once('exit', onExit);
      job.signal.addEventListener('abort', onAbort, { once: true });
      const request: DecodeRequest = { id: job.id, bytes: job.bytes, mimeType: job.mimeType };
      child.send(request, (err) => {
        if (err) settle(() => reject(err));
      });
    });
  }

  private async startIn(slot: Slot): Promise<ChildProcess> {
    const child = await this.start();
    slot.child = child;
    // One that dies while idle (the kernel's OOM killer, say) is replaced on the next file.
    child.once('exit', () => {
      if (slot.child === child) slot.child = null;
    });
    return child;
  }

  /** Forks a decoder and waits for it to load; a decoder that cannot start is our fault, not the file's. */
  private start(): Promise<ChildProcess> {
    const heapMb = Math.max(128, Math.floor(this.limits.DECODE_MAX_RSS_MB / 2));
    const child = fork(CHILD_ENTRY, [], {
      execArgv: [...(fromSources ? ['--import', 'tsx'] : []), `--max-old-space-size=${heapMb}`],
      serialization: 'advanced',
      // Anything a decoder prints goes to our stderr: stdout is for the service's JSON log lines
      // (and the extract CLI's results).
      stdio: ['ignore', 2, 2, 'ipc'],
    });
    // An idle decoder never keeps its parent alive (a job in flight has its timer for that);
    // it exits by itself when the parent goes.
    child.unref();
    child.channel?.unref();
    const notLowered = lowerProcess(child.pid);
    if (notLowered) this.log.warn({ err: notLowered.message, decoderPid: child.pid }, 'cannot lower the decoder priority; it competes with the service as an equal');
    return new Promise<ChildProcess>((resolve, reject) => {
      // Starting is not the file's time: a busy machine may take seconds to load pdfjs and sharp,
      // tens of seconds at background priority; the bound is for a process that cannot start.
      const startMs = WALL_LIMIT_FACTOR * Math.max(this.limits.DECODE_TIMEOUT_MS, MIN_START_MS);
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        fail(new Error(`decoder process did not start within ${startMs} ms`));
      }, startMs);
      const onMessage = (reply: DecodeReply) => {
        if (reply.type !== 'ready') return;
        cleanup();
        this.log.debug({ decoderPid: child.pid }, 'decoder process started');
        resolve(child);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => fail(new Error(`decoder process exited (${code ?? signal}) before it was ready`));
      const fail = (err: Error) => {
        cleanup();
        this.log.error({ err: err.message }, 'decoder process failed to start');
        reject(err);
      };
      const cleanup = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.off('error', fail);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.once('error', fail);
    });
  }

  /** SIGKILL and wait for the exit, so a replacement never shares the memory with its predecessor. */
  private kill(slot: Slot, child: ChildProcess): Promise<void> {
    if (slot.child === child) slot.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  /** A decoder that grew past half its limit on one file gives the memory back by being replaced. */
  private retireIfBloated(slot: Slot, child: ChildProcess, peakMb: number): void {
    if (peakMb <= this.limits.DECODE_MAX_RSS_MB / 2) return;
    this.log.info({ decoderPid: child.pid, peakRssMb: Math.round(peakMb) }, 'decoder replaced after a large file');
    void this.kill(slot, child);
  }
}

/** Structured clone hands Uint8Arrays over; the contract is Buffers. */
function asBuffers(result: DecodedPages): DecodedPages {
  return {
    ...result,
    pages: result.pages.map((p) => ({ ...p, image: asBuffer(p.image) })),
    pictures: result.pictures?.map(asBuffer),
  };
}

let configured: { limits: DecodeConfig; log: Logger } | null = null;
let sandbox: DecodeSandbox | null = null;

/** Sets the decode limits and logger (the worker's config); until called, the defaults apply. */
export function configureDecoding(limits: DecodeConfig, log: Logger): void {
  const previous = sandbox;
  configured = { limits: decodeConfigSchema.parse(limits), log };
  sandbox = null;
  // Processes started under the old limits go; their jobs (none at start-up) would fail.
  if (previous) void previous.close();
}

/** The process-wide pool, created on first use so api-only processes never start a decoder. */
export function decodeSandbox(): DecodeSandbox {
  if (!sandbox) {
    const { limits, log } = configured ?? { limits: decodeConfigSchema.parse({}), log: createLogger({ level: 'warn', role: 'worker' }) };
    sandbox = new DecodeSandbox(limits, log.child({ component: 'decoder' }));
  }
  return sandbox;
}

/** Stops the pool's processes (tests, shutdown); a later decode starts new ones. */
export async function closeDecoding(): Promise<void> {
  const current = sandbox;
  sandbox = null;
  await current?.close();
}
