import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../tests/support/database.js';
import { idempotencyKeys } from './db/schema.js';
import { LocalFileStore, StoredFileMissingError } from './file-store.js';
import { IdempotencyKeyRepository } from './idempotency-key.repository.js';
import { QuotaService, type QuotaOwner } from './quota.service.js';
import { pruneIdempotencyKeys } from './retention.js';
import { UploadRepository } from './upload.repository.js';

// Real PostgreSQL and the embedded PGlite: one claim per owner and key lives in the unique index.
describe.each(['postgres', 'pglite'] as const)('idempotency keys on %s', { timeout: 60_000 }, (kind) => {
  let database: TestDatabase;
  let keys: IdempotencyKeyRepository;
  let dir: string;
  let files: LocalFileStore;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    keys = new IdempotencyKeyRepository(database.db);
    dir = await mkdtemp(path.join(os.tmpdir(), 'idempotency-'));
    files = new LocalFileStore(dir);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const visitor = (): QuotaOwner => ({ userId: null, anonId: randomUUID() });
  const exportAnswer = (fileId: string) => ({ export: { fileId, filename: 'e.csv', contentType: 'text/csv', rows: 1, withIssues: 0, skipped: 0 } });
  const setCreatedAt = (id: string, at: Date) => database.db.update(idempotencyKeys).set({ createdAt: at }).where(eq(idempotencyKeys.id, id));

  it('gives a key to one claim only, and keeps it with its answer', async () => {
    const owner = visitor();
    const claims = await Promise.all(Array.from({ length: 5 }, () => keys.claim(owner, 'k', 'f1')));
    const won = claims.filter((c) => c !== null);
    expect(won).toHaveLength(1);
    expect(await keys.find(owner, 'k')).toMatchObject({ id: won[0]!.id, fingerprint: 'f1', answer: null });
    expect(await keys.answer(won[0]!.id, exportAnswer(randomUUID()))).toBe(true);
    // Answered once: a second answer changes nothing.
    expect(await keys.answer(won[0]!.id, exportAnswer(randomUUID()))).toBe(false);
    expect(await keys.claim(owner, 'k', 'f2')).toBeNull();
  });

  it('keeps an account’s keys and an anonymous session’s apart', async () => {
    const id = randomUUID();
    const asVisitor = await keys.claim({ userId: null, anonId: id }, 'same', 'f');
    const asAccount = await keys.claim({ userId: id, anonId: null }, 'same', 'f');
    const asOther = await keys.claim(visitor(), 'same', 'f');
    expect([asVisitor, asAccount, asOther].every((c) => c !== null)).toBe(true);
    expect(new Set([asVisitor!.id, asAccount!.id, asOther!.id]).size).toBe(3);
  });

  it('frees a released claim, but never an answered key', async () => {
    const owner = visitor();
    const failed = await keys.claim(owner, 'k', 'f');
    await keys.release(failed!.id);
    expect(await keys.find(owner, 'k')).toBeNull();
    const answered = await keys.claim(owner, 'k', 'f');
    await keys.answer(answered!.id, exportAnswer(randomUUID()));
    await keys.release(answered!.id);
    expect(await keys.find(owner, 'k')).toMatchObject({ id: answered!.id });
  });

  it('forgets a key when the upload it answered with is deleted', async () => {
    const owner = visitor();
    const quota = new QuotaService(database.db, []);
    const uploads = new UploadRepository(database.db);
    const upload = await uploads.create(
      { id: randomUUID(), owner, filename: 'r.png', mimeType: 'image/png', size: 3, sha256: randomUUID(), currencyCode: null, lane: 'standard' },
      await quota.policy(owner),
    );
    const claim = await keys.claim(owner, 'k', 'f');
    await keys.answer(claim!.id, { upload: { id: upload!.id, status: 'queued', lane: 'standard' } });
    expect(await keys.find(owner, 'k')).toMatchObject({ uploadId: upload!.id });
    await uploads.remove(owner, upload!.id);
    expect(await keys.find(owner, 'k')).toBeNull();
  });

  it('prunes keys older than a day with the exports they kept, and no newer ones', async () => {
    const owner = visitor();
    const now = new Date();
    const dayAgo = new Date(now.getTime() - 24 * 3600_000);
    const old = await keys.claim(owner, 'old', 'f');
    const oldFile = randomUUID();
    await files.put(oldFile, Buffer.from('old export'));
    await keys.answer(old!.id, exportAnswer(oldFile));
    await setCreatedAt(old!.id, new Date(dayAgo.getTime() - 1));
    const abandoned = await keys.claim(owner, 'abandoned', 'f');
    await setCreatedAt(abandoned!.id, new Date(dayAgo.getTime() - 1));
    const recent = await keys.claim(owner, 'recent', 'f');
    const recentFile = randomUUID();
    await files.put(recentFile, Buffer.from('recent export'));
    await keys.answer(recent!.id, exportAnswer(recentFile));

    expect(await pruneIdempotencyKeys(keys, files, dayAgo)).toBeGreaterThanOrEqual(2);
    expect(await keys.find(owner, 'old')).toBeNull();
    expect(await keys.find(owner, 'abandoned')).toBeNull();
    await expect(files.read(oldFile)).rejects.toBeInstanceOf(StoredFileMissingError);
    expect(await keys.find(owner, 'recent')).toMatchObject({ id: recent!.id });
    expect((await files.read(recentFile)).toString()).toBe('recent export');
    expect(await keys.ofOwner(owner)).toEqual([{ id: recent!.id, answer: exportAnswer(recentFile) }]);
  });
});
