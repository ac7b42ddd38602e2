import type { Worker } from 'node:worker_threads';
import { messages, type PGlite, type Results } from '@electric-sql/pglite';
import { startModuleThread } from '../worker-thread.js';

export interface PgliteThreadData {
  dir: string;
  migrationsFolder: string;
}

/** How a query's values come back: PGlite parses them, except the types listed raw (the caller's own parsers). */
export interface ThreadQueryOptions {
  rowMode?: 'array' | 'object';
  raw?: number[];
}

export type PgliteRequest = { id: number } & (
  | { op: 'query'; text: string; params: unknown[]; options: ThreadQueryOptions; tx?: number }
  | { op: 'begin'; tx: number }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'close' }
);

export type PgliteReply =
  | { id: number; ok: true; result?: Pick<Results, 'rows' | 'fields' | 'affectedRows'> }
  | { id: number; ok: false; error: { message: string; fields: Record<string, string | number> } };

/** What drizzle's PGlite driver passes with a query: the row shape and parsers by type. */
interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

/** The part of PGlite drizzle's driver uses, a transaction's included. */
interface Queryable {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
}

/**
 * The embedded database on a thread of its own (pglite.thread.ts), used as drizzle uses PGlite:
 * `query` and `transaction`. PGlite runs PostgreSQL in WebAssembly on the thread that calls it, so
 * in the embedded process every statement (the upload's insert, the worker's progress, an
 * export's pages) took the event loop that answers HTTP: a third of it in a burst of uploads.
 * Here a statement is a message to the thread and its rows a message back. The thread opens and
 * migrates the database before the first query. An idle thread does not keep the process alive
 * (PGlite did not); one with a statement under way does. A thread that dies fails every statement
 * from then on: the process's readiness check says so.
 */
export class PgliteThread implements Queryable {
  private readonly thread: Worker;
  private readonly pending = new Map<number, { resolve(reply: PgliteReply & { ok: true }): void; reject(err: Error): void }>();
  private nextId = 1;
  private nextTx = 1;
  private dead: Error | null = null;
  /** Set by close (and a failed open): the thread's end is then not a death to report. */
  private closing = false;
  private readonly ready: Promise<void>;

  private constructor(
    data: PgliteThreadData,
    private readonly onStopped?: (err: Error) => void,
  ) {
    this.thread = startModuleThread(import.meta.url, 'pglite.thread', { workerData: data });
    this.ready = new Promise((resolve, reject) => this.pending.set(0, { resolve: () => resolve(), reject }));
    this.thread.on('message', (reply: PgliteReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.thread.unref();
      if (reply.ok) waiting.resolve(reply);
      else waiting.reject(databaseError(reply.error));
    });
    const died = (err: Error) => {
      if (!this.dead && !this.closing) this.onStopped?.(err);
      this.dead ??= err;
      for (const waiting of this.pending.values()) waiting.reject(this.dead);
      this.pending.clear();
    };
    this.thread.on('error', (err) => died(new Error(`The embedded database stopped: ${err.message}`)));
    this.thread.on('exit', (code) => died(new Error(`The embedded database stopped (its thread exited with code ${code}).`)));
  }

  /** Opens (and migrates) the database in `dir` on a new thread; `onStopped` hears of its thread dying later. */
  static async open(data: PgliteThreadData, onStopped?: (err: Error) => void): Promise<PgliteThread> {
    const client = new PgliteThread(data, onStopped);
    try {
      await client.ready;
    } catch (err) {
      client.closing = true;
      await client.thread.terminate();
      throw err;
    }
    return client;
  }

  query<T>(text: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results<T>> {
    return this.run<T>(text, params, options);
  }

  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const tx = this.nextTx++;
    await this.call({ op: 'begin', tx });
    let result: T;
    try {
      result = await fn({ query: <R>(text: string, params: unknown[] = [], options: QueryOptions = {}) => this.run<R>(text, params, options, tx) });
    } catch (err) {
      await this.call({ op: 'end', tx, commit: false });
      throw err;
    }
    await this.call({ op: 'end', tx, commit: true });
    return result;
  }

  async close(): Promise<void> {
    this.closing = true;
    if (!this.dead) await this.call({ op: 'close' });
    await this.thread.terminate();
  }

  private async run<T>(text: string, params: unknown[], options: QueryOptions, tx?: number): Promise<Results<T>> {
    const parsers = options.parsers;
    const raw = parsers ? Object.keys(parsers).map(Number) : undefined;
    const { result } = await this.call({ op: 'query', text, params, options: { rowMode: options.rowMode, raw }, tx });
    const results = result as Results<T>;
    if (parsers) parseRaw(results, parsers, options.rowMode);
    return results;
  }

  private call(request: DistributiveOmit<PgliteRequest, 'id'>): Promise<PgliteReply & { ok: true }> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.thread.ref();
      this.thread.postMessage({ ...request, id });
    });
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The caller's parsers applied to the values the thread left raw. */
function parseRaw(results: Results<unknown>, parsers: NonNullable<QueryOptions['parsers']>, rowMode: QueryOptions['rowMode']): void {
  results.fields.forEach(({ name, dataTypeID }, column) => {
    const parse = parsers[dataTypeID];
    if (!parse) return;
    const key = rowMode === 'array' ? column : name;
    for (const row of results.rows as Array<Record<string | number, unknown>>) {
      const value = row[key];
      if (typeof value === 'string') row[key] = parse(value, dataTypeID);
    }
  });
}

/** The thread's error as PGlite throws it: a DatabaseError with PostgreSQL's fields (code, constraint, …). */
function databaseError({ message, fields }: { message: string; fields: Record<string, string | number> }): Error {
  const { length, name, ...rest } = fields;
  const err = typeof rest.code === 'string' ? new messages.DatabaseError(message, Number(length ?? 0), (name ?? 'error') as messages.MessageName) : new Error(message);
  return Object.assign(err, rest);
}

/** The thread's client as the PGlite drizzle's driver takes. */
export const asPglite = (client: PgliteThread): PGlite => client as unknown as PGlite;
