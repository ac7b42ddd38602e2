import type { Worker } from 'node:worker_threads';
import { startModuleThread, type Logger } from '@receipts/infra';
import { MessageRefusedError, type MessageHead, type ParsedAttachment } from './mail.parser.js';

/** A message as the intake uses it: its head, its attachments, and its body as text. */
export interface ReadMessage extends MessageHead {
  attachments: ParsedAttachment[];
  /** The HTML part as text (tables kept as columns), else the text part; null when there is none. */
  body: string | null;
}

export type ToMailThread = { id: number; raw: Uint8Array; maxAttachments: number };

export type FromMailThread =
  | { type: 'head'; id: number; head: MessageHead }
  | { type: 'read'; id: number; message: ReadMessage }
  | { type: 'refused'; id: number; refusal: MessageRefusedError['refusal']; detail: string; head: MessageHead | null };

export interface MailReaderOptions {
  maxAttachments: number;
  /** Wall time a message may take to read; past it the thread is ended and the message refused. */
  timeoutMs: number;
  /** The reading thread's heap; a message that needs more ends the thread and is refused. */
  maxHeapMb: number;
  log: Logger;
}

interface Job {
  id: number;
  raw: Buffer;
  head: MessageHead | null;
  resolve(message: ReadMessage): void;
  reject(err: Error): void;
}

/** Bytes that crossed the thread as a plain Uint8Array, as a Buffer again (no copy). */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Reads mail off the api's event loop (mail-reading.thread.ts), one message at a time, bounded
 * in time and heap. A message that overruns either bound ends the thread (the next message gets
 * a fresh one) and is refused as too complex, so it is answered and set aside like any refusal
 * instead of freezing or crashing the process that serves every user.
 */
export class MailReader {
  private thread: Worker | null = null;
  private readonly queue: Job[] = [];
  private current: Job | null = null;
  private timer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: MailReaderOptions) {}

  /** The message read, or a MessageRefusedError saying why it cannot be. */
  read(raw: Buffer): Promise<ReadMessage> {
    if (this.closed) return Promise.reject(new Error('the mail reader is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, raw, head: null, resolve, reject });
      this.next();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the mail reader is closed'));
    this.current?.reject(new Error('the mail reader is closed'));
    this.current = null;
    await this.stop();
  }

  private next(): void {
    if (this.current || this.queue.length === 0) return;
    const job = (this.current = this.queue.shift()!);
    const thread = this.thread ?? this.start();
    // A copy of its own, moved rather than cloned: the received Buffer may be a slice of a larger pool.
    const raw = new Uint8Array(job.raw);
    thread.postMessage({ id: job.id, raw, maxAttachments: this.options.maxAttachments } satisfies ToMailThread, [raw.buffer]);
    this.timer = setTimeout(() => this.overrun(job, `reading took longer than ${this.options.timeoutMs} ms`), this.options.timeoutMs);
  }

  private start(): Worker {
    const thread = startModuleThread(import.meta.url, 'mail-reading.thread', {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb, maxYoungGenerationSizeMb: Math.min(32, this.options.maxHeapMb / 4) },
    });
    thread.on('message', (message: FromMailThread) => this.answer(message));
    thread.on('error', (err: Error & { code?: string }) => {
      if (this.thread !== thread) return;
      const job = this.current;
      const outOfMemory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.options.log.warn({ err: err.message, code: err.code }, 'intake mail reading thread failed');
      this.thread = null;
      if (job) this.finish(job, null, outOfMemory ? new MessageRefusedError('too-complex', `reading needed more than ${this.options.maxHeapMb} MB`, job.head) : err);
    });
    thread.on('exit', () => {
      if (this.thread !== thread) return;
      this.thread = null;
      if (this.current) this.finish(this.current, null, new Error('the mail reading thread stopped'));
    });
    // An idle reader must not keep the process alive.
    thread.unref();
    this.thread = thread;
    return thread;
  }

  private answer(message: FromMailThread): void {
    const job = this.current;
    if (!job || job.id !== message.id) return;
    if (message.type === 'head') job.head = message.head;
    else if (message.type === 'refused') this.finish(job, null, new MessageRefusedError(message.refusal, message.detail, message.head));
    else this.finish(job, { ...message.message, attachments: message.message.attachments.map((a) => ({ ...a, content: asBuffer(a.content) })) });
  }

  /** Ends the thread in whatever it is doing (terminate stops even a loop that never yields). */
  private overrun(job: Job, detail: string): void {
    if (this.current !== job) return;
    this.options.log.warn({ detail }, 'intake message overran its reading bound; the reading thread is replaced');
    void this.stop();
    this.finish(job, null, new MessageRefusedError('too-complex', detail, job.head));
  }

  private async stop(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    if (thread) await thread.terminate();
  }

  private finish(job: Job, message: ReadMessage | null, err?: Error): void {
    if (this.current !== job) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.current = null;
    if (message) job.resolve(message);
    else job.reject(err ?? new Error('the message was not read'));
    this.next();
  }
}
