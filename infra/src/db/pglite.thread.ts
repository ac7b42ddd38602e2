// The embedded database's thread: PGlite (PostgreSQL in WebAssembly) opened, migrated and queried
// here, so its work does not take the event loop of the process it serves (pglite-thread.client.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { keepStatementsParsed } from './pglite-statements.js';
import type { PgliteReply, PgliteRequest, PgliteThreadData, ThreadQueryOptions } from './pglite-thread.client.js';

const { dir, migrationsFolder } = workerData as PgliteThreadData;
const port = parentPort!;

/** Open transactions by the caller's number: each waits here for its end (commit or rollback). */
const open = new Map<number, { tx: Transaction; end: (commit: boolean) => void; endId?: number }>();
/** A rollback asked for by the caller: not an error of the transaction. */
const ROLLBACK = Symbol('rollback');
const identity = (value: unknown) => value;
/** Per set of raw types: PGlite's parsers for them replaced by the identity (the caller parses those). */
const rawParsers = new Map<string, Record<number, (value: unknown) => unknown>>();

function reply(message: PgliteReply): void {
  port.postMessage(message);
}

/** What the caller needs of an error: its message and PostgreSQL's fields (code, detail, constraint, …). */
function describe(err: unknown): { message: string; fields: Record<string, string | number> } {
  const fields: Record<string, string | number> = {};
  if (err && typeof err === 'object') {
    for (const [key, value] of Object.entries(err)) if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return { message: err instanceof Error ? err.message : String(err), fields };
}

function queryOptions(options: ThreadQueryOptions) {
  if (!options.raw?.length) return { rowMode: options.rowMode };
  const key = options.raw.join(',');
  let parsers = rawParsers.get(key);
  if (!parsers) rawParsers.set(key, (parsers = Object.fromEntries(options.raw.map((oid) => [oid, identity]))));
  return { rowMode: options.rowMode, parsers };
}

async function handle(client: PGlite, request: PgliteRequest): Promise<void> {
  const { id } = request;
  try {
    switch (request.op) {
      case 'query': {
        const on = request.tx === undefined ? client : open.get(request.tx)?.tx;
        if (!on) throw new Error('The transaction has ended.');
        const { rows, fields, affectedRows } = await on.query<Record<string, unknown>>(request.text, request.params, queryOptions(request.options));
        reply({ id, ok: true, result: { rows, fields, affectedRows } });
        return;
      }
      case 'begin': {
        const tx = request.tx;
        // Settles once the caller ends the transaction; the reply to its 'end' is sent then.
        const settled = (err?: unknown) => {
          const endId = open.get(tx)?.endId;
          open.delete(tx);
          // No 'end' asked for: BEGIN itself failed, and the 'begin' hears why.
          const to = endId ?? id;
          reply(err === undefined || err === ROLLBACK ? { id: to, ok: true } : { id: to, ok: false, error: describe(err) });
        };
        client
          .transaction(
            (t) =>
              new Promise<void>((resolve, reject) => {
                open.set(tx, { tx: t, end: (commit) => (commit ? resolve() : reject(ROLLBACK)) });
                reply({ id, ok: true });
              }),
          )
          .then(() => settled(), settled);
        return;
      }
      case 'end': {
        const entry = open.get(request.tx);
        if (!entry) throw new Error('The transaction has ended.');
        entry.endId = id;
        entry.end(request.commit);
        return;
      }
      case 'close':
        await client.close();
        reply({ id, ok: true });
        return;
    }
  } catch (err) {
    reply({ id, ok: false, error: describe(err) });
  }
}

try {
  const client = await PGlite.create(dir);
  keepStatementsParsed(client);
  await migrate(drizzle(client), { migrationsFolder });
  // Each request is handled as it comes: one waiting for a transaction to end must not hold the others.
  port.on('message', (request: PgliteRequest) => void handle(client, request));
  reply({ id: 0, ok: true });
} catch (err) {
  reply({ id: 0, ok: false, error: describe(err) });
}
