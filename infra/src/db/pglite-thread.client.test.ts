import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasSqlState } from '../error-chain.js';
import { PgliteThread } from './pglite-thread.client.js';

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

// Opening a database migrates it: seconds on a loaded machine.
describe('PgliteThread (the embedded database on a thread of its own)', { timeout: 60_000 }, () => {
  let dir: string;
  let db: PgliteThread;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'receipts-pglite-thread-'));
    db = await PgliteThread.open({ dir, migrationsFolder });
  }, 60_000);
  beforeEach(async () => {
    await db.query('DROP TABLE IF EXISTS t');
    await db.query('CREATE TABLE t (id int PRIMARY KEY, name text NOT NULL, at timestamptz, data jsonb)');
  });
  afterAll(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  const names = async () => (await db.query<{ name: string }>('SELECT name FROM t ORDER BY id')).rows.map((r) => r.name);

  it('opens the database migrated, and answers rows in both modes with the caller’s parsers on the types it names', async () => {
    const migrated = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    expect(migrated.rows[0]!.n).toBeGreaterThan(0);
    const at = '2026-11-27 10:00:00.123+00';
    const inserted = await db.query('INSERT INTO t VALUES ($1, $2, $3, $4) RETURNING *', [1, "O'Brien ☕", at, JSON.stringify({ a: [1, 'x'] })]);
    // PGlite's own parsers: a Date and an object.
    expect(inserted.rows).toEqual([{ id: 1, name: "O'Brien ☕", at: new Date(at), data: { a: [1, 'x'] } }]);
    expect(inserted.affectedRows).toBe(1);
    // drizzle asks for timestamps as text (its parsers): the thread leaves them raw, the caller's parser runs.
    const seen: unknown[] = [];
    const parsers = { 1184: (value: string) => (seen.push(value), `parsed ${value}`) };
    const asArray = await db.query('SELECT id, at, data FROM t', [], { rowMode: 'array', parsers });
    expect(asArray.rows).toEqual([[1, `parsed ${seen[0]}`, { a: [1, 'x'] }]]);
    expect(seen).toEqual([expect.stringMatching(/^2026-11-27 10:00:00\.123\+00/)]);
    expect(asArray.fields.map((f) => f.name)).toEqual(['id', 'at', 'data']);
  });

  it('commits a transaction that resolves and rolls back one that throws, its error passed on', async () => {
    const value = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id, name) VALUES (1, $1)', ['kept']);
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0]!.n;
    });
    expect(value).toBe(1);
    const failure = new Error('changed my mind');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id, name) VALUES (2, $1)', ['undone']);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await names()).toEqual(['kept']);
  });

  it('holds other statements until a transaction ends, as PGlite does', async () => {
    let later: Promise<string[]> | undefined;
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id, name) VALUES (1, $1)', ['inside']);
      later = names();
      // Answered only after the commit: it would otherwise see no row or run inside the transaction.
      await new Promise((r) => setTimeout(r, 50));
      await tx.query('INSERT INTO t (id, name) VALUES (2, $1)', ['also inside']);
    });
    expect(await later).toEqual(['inside', 'also inside']);
  });

  it("rejects with PostgreSQL's error fields, the transaction's statements undone, and answers the next query", async () => {
    await db.query('INSERT INTO t (id, name) VALUES (1, $1)', ['first']);
    const duplicate = await db.query('INSERT INTO t (id, name) VALUES (1, $1)', ['again']).catch((err: unknown) => err);
    expect(duplicate).toBeInstanceOf(Error);
    expect(hasSqlState(duplicate, '23505')).toBe(true);
    expect(duplicate).toMatchObject({ constraint: 't_pkey', table: 't' });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id, name) VALUES (2, $1)', ['second']);
        await tx.query('INSERT INTO t (id, name) VALUES (1, $1)', ['again']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await names()).toEqual(['first']);
  });

  it('fails every statement once its thread has died, and tells its owner once; a close is not a death', async () => {
    const own = await mkdtemp(path.join(os.tmpdir(), 'receipts-pglite-thread-'));
    const stopped: Error[] = [];
    const doomed = await PgliteThread.open({ dir: own, migrationsFolder }, (err) => stopped.push(err));
    const closed = await PgliteThread.open({ dir: own + '-closed', migrationsFolder }, (err) => stopped.push(err));
    try {
      await (doomed as unknown as { thread: { terminate(): Promise<number> } }).thread.terminate();
      await expect(doomed.query('SELECT 1')).rejects.toThrow(/embedded database stopped/);
      await expect(doomed.query('SELECT 1')).rejects.toThrow(/embedded database stopped/);
      await closed.close();
      expect(stopped.map((e) => e.message)).toEqual([expect.stringMatching(/embedded database stopped/)]);
    } finally {
      await doomed.close();
      await rm(own, { recursive: true, force: true });
      await rm(own + '-closed', { recursive: true, force: true });
    }
  });
});
