import { PGlite } from '@electric-sql/pglite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepStatementsParsed } from './pglite-statements.js';

describe('keepStatementsParsed (PGlite queries as kept statements)', () => {
  let client: PGlite;
  /** The same database answering through PGlite's own query, to compare with. */
  let plain: PGlite['query'];

  beforeEach(async () => {
    client = await PGlite.create();
    plain = client.query.bind(client);
    await client.exec(`CREATE TABLE t (id uuid PRIMARY KEY, name text NOT NULL, n int, at timestamptz, data jsonb, tags text[], ok boolean)`);
  });
  afterEach(async () => {
    await client.close();
  });

  /** The texts of the statements the database holds parsed. */
  const kept = async () => (await plain<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map((r) => r.statement);

  it('answers as PGlite does, for parameters and columns of every kind, in both row modes', async () => {
    keepStatementsParsed(client);
    const insert = 'INSERT INTO t (id, name, n, at, data, tags, ok) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *';
    const row = ['0b6f6d2e-1c1e-4f57-9d4e-2f1f9c1a0b11', "O'Brien ☕", 42, new Date('2026-11-26T10:00:00.123Z'), { a: [1, 'x'] }, ['a', 'b c'], true];
    const inserted = await client.query(insert, row);
    expect(inserted.rows).toEqual([{ id: row[0], name: row[1], n: 42, at: row[3], data: row[4], tags: row[5], ok: true }]);
    await client.query('INSERT INTO t (id, name) VALUES ($1, $2)', ['0b6f6d2e-1c1e-4f57-9d4e-2f1f9c1a0b12', 'nulls']);

    const select = 'SELECT * FROM t WHERE name = $1 OR n IS NULL ORDER BY id';
    for (const options of [undefined, { rowMode: 'array' as const }]) {
      const ours = await client.query(select, ["O'Brien ☕"], options);
      const theirs = await plain(select, ["O'Brien ☕"], options);
      expect(ours.rows).toEqual(theirs.rows);
      expect(ours.fields).toEqual(theirs.fields);
      expect(ours.rows).toHaveLength(2);
    }
    const update = await client.query('UPDATE t SET n = n + 1 WHERE n = $1', [42]);
    expect(update.affectedRows).toBe(1);
  });

  it('parses a text once, and keeps no more than it was told, closing the used longest ago', async () => {
    keepStatementsParsed(client, 2);
    const first = 'SELECT count(*) FROM t WHERE n = $1';
    for (let n = 0; n < 3; n++) await client.query(first, [n]);
    expect(await kept()).toEqual([first]);

    await client.query('SELECT count(*) FROM t WHERE name = $1', ['a']);
    await client.query(first, [1]); // used again: now the newest
    await client.query('SELECT count(*) FROM t WHERE ok = $1', [true]);
    // The third text pushed out the one used longest ago; it is closed with the next call.
    await client.query(first, [2]);
    expect((await kept()).sort()).toEqual([first, 'SELECT count(*) FROM t WHERE ok = $1'].sort());
  });

  it("rejects with the database's error, keeps no statement that did not parse, and answers the next query", async () => {
    keepStatementsParsed(client);
    const insert = 'INSERT INTO t (id, name) VALUES ($1, $2)';
    await client.query(insert, ['0b6f6d2e-1c1e-4f57-9d4e-2f1f9c1a0b13', 'a']);
    const duplicate = await client.query(insert, ['0b6f6d2e-1c1e-4f57-9d4e-2f1f9c1a0b13', 'b']).catch((err: unknown) => err);
    expect(duplicate).toMatchObject({ code: '23505', query: insert, params: ['0b6f6d2e-1c1e-4f57-9d4e-2f1f9c1a0b13', 'b'] });

    await expect(client.query('SELEC 1')).rejects.toMatchObject({ code: '42601' });
    expect(await kept()).toEqual([insert]);
    expect((await client.query<{ count: number }>('SELECT count(*)::int AS count FROM t')).rows).toEqual([{ count: 1 }]);
  });

  it("waits for another caller's transaction instead of running inside it", async () => {
    keepStatementsParsed(client);
    let counted: Promise<unknown> | undefined;
    await client
      .transaction(async (tx) => {
        await tx.query('INSERT INTO t (id, name) VALUES ($1, $2)', ['0b6f6d2e-1c1e-4f57-9d4e-2f1f9c1a0b14', 'uncommitted']);
        counted = client.query<{ count: number }>('SELECT count(*)::int AS count FROM t');
        // Let the query reach the database if it were going to run now.
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('roll back');
      })
      .catch(() => undefined); // the rollback is the point of this transaction
    expect(((await counted) as { rows: unknown[] }).rows).toEqual([{ count: 0 }]);
  });

  it('parses a kept statement again when its table changed shape', async () => {
    keepStatementsParsed(client);
    await client.query('INSERT INTO t (id, name) VALUES ($1, $2)', ['0b6f6d2e-1c1e-4f57-9d4e-2f1f9c1a0b15', 'a']);
    const all = 'SELECT * FROM t WHERE name = $1';
    expect(Object.keys((await client.query<object>(all, ['a'])).rows[0]!)).not.toContain('extra');
    await client.exec(`ALTER TABLE t ADD COLUMN extra text DEFAULT 'x'`);
    expect((await client.query<{ extra: string }>(all, ['a'])).rows[0]!.extra).toBe('x');
  });
});
