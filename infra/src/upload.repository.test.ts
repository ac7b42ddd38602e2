import { randomUUID } from 'node:crypto';
import { UPLOAD_STATUSES, type UploadStatus } from '@receipts/common';
import { eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../tests/support/database.js';
import * as schema from './db/schema.js';
import { QuotaService, type QuotaOwner, type QuotaPolicy } from './quota.service.js';
import { UploadDuplicateRepository } from './upload-duplicate.repository.js';
import { UploadReadRepository } from './upload-read.repository.js';
import { UPLOAD_MOVES, UploadRepository, type ExtractedReceipt, type UploadMove } from './upload.repository.js';

// Real PostgreSQL and the embedded PGlite (a database of this run's own): the guarantees below live in SQL statements.
describe.each(['postgres', 'pglite'] as const)('upload repository on %s', { timeout: 60_000 }, (kind) => {
  let database: TestDatabase;
  let uploads: UploadRepository;
  let reads: UploadReadRepository;
  let duplicates: UploadDuplicateRepository;
  let quota: QuotaService;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    uploads = new UploadRepository(database.db);
    reads = new UploadReadRepository(database.db);
    duplicates = new UploadDuplicateRepository(database.db);
    quota = new QuotaService(database.db, []);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  const visitor = (): QuotaOwner => ({ userId: null, anonId: randomUUID() });
  const policyOf = (owner: QuotaOwner, limit = 100): Promise<QuotaPolicy> => quota.policy(owner).then((p) => ({ ...p, limit }));

  async function newUpload(owner = visitor(), policy?: QuotaPolicy, sha256: string = randomUUID()) {
    const row = await uploads.create(
      { id: randomUUID(), owner, filename: 'r.jpg', mimeType: 'image/jpeg', size: 3, sha256, currencyCode: null, lane: 'standard' },
      policy ?? (await policyOf(owner)),
    );
    return row!;
  }

  const receipt = (total: number): ExtractedReceipt => ({
    merchantName: 'Corner Shop',
    date: '2024-05-01',
    total,
    currency: 'EUR',
    category: 'grocery',
    quality: 0.9,
    items: [],
    rawText: 'CORNER SHOP',
    issues: [],
    valid: true,
  });

  /** Reads straight from the tables, past the repository under test. */
  const rows = async (query: SQL) => ((await database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
  const statusOf = async (id: string) => (await rows(sql`SELECT status FROM uploads WHERE id = ${id}`))[0]?.status;
  const used = async (owner: QuotaOwner) => (await quota.view(owner)).used;
  const receiptsOf = async (id: string) => Number((await rows(sql`SELECT count(*) AS n FROM receipts WHERE upload_id = ${id}`))[0]!.n);

  /** Runs one move against an upload put in `status` directly; whether it changed anything. */
  async function tryMove(move: UploadMove, status: UploadStatus): Promise<boolean> {
    const owner = visitor();
    const { id } = await newUpload(owner);
    await database.db.execute(sql`UPDATE uploads SET status = ${status} WHERE id = ${id}`);
    const runs: Record<UploadMove, () => Promise<unknown>> = {
      claim: () => uploads.claim(id),
      progress: async () => (await uploads.progress(id, 40, 'recognizing')) || null,
      complete: () => uploads.complete(id, receipt(1)),
      fail: () => uploads.fail(id, 'broken'),
      cancel: () => uploads.cancel(owner, id),
      handBack: async () => (await uploads.handBack(id)) || null,
      retry: () => uploads.retry(id),
      reextract: async () => {
        const outcome = await uploads.reextract(owner, id, { engine: null, lane: 'standard' }, await policyOf(owner));
        return 'queued' in outcome ? outcome : null;
      },
      restore: async () => {
        const [row] = await database.db.select().from(schema.uploads).where(eq(schema.uploads.id, id));
        await uploads.restore({ ...row!, status: 'cancelled', progress: 77 });
        const [after] = await database.db.select().from(schema.uploads).where(eq(schema.uploads.id, id));
        return after!.progress === 77 ? after : null;
      },
    };
    return (await runs[move]()) !== null;
  }

  it('moves an upload only from the statuses each move names, for every status', async () => {
    // The lifecycle of the spec: queued → processing → completed | failed | cancelled, and back
    // to queued only by a hand-back, an admin retry or a re-extraction.
    expect(UPLOAD_MOVES).toEqual({
      claim: ['queued', 'processing'],
      progress: ['processing'],
      complete: ['processing'],
      fail: ['queued', 'processing'],
      cancel: ['queued', 'processing'],
      handBack: ['processing'],
      retry: ['failed'],
      reextract: ['completed', 'failed', 'cancelled'],
      restore: ['queued'],
    });
    for (const move of Object.keys(UPLOAD_MOVES) as UploadMove[]) {
      for (const status of UPLOAD_STATUSES) {
        const allowed = (UPLOAD_MOVES[move] as readonly UploadStatus[]).includes(status);
        expect(await tryMove(move, status), `${move} from ${status}`).toBe(allowed);
      }
    }
  });

  it('takes an upload through its lifecycle to a stored receipt', async () => {
    const owner = visitor();
    const { id } = await newUpload(owner);
    expect((await uploads.claim(id))!.status).toBe('processing');
    expect(await uploads.progress(id, 40, 'recognizing')).toBe(true);
    const stored = await uploads.complete(id, receipt(12.5));
    expect(stored!.total).toBe(12.5);
    const view = await reads.view(owner, id);
    expect(view).toMatchObject({ status: 'completed', progress: 100, step: null, receipt: { total: 12.5 } });
    // Another owner sees nothing.
    expect(await reads.view(visitor(), id)).toBeNull();
  });

  it('stores one receipt per upload: a re-extraction replaces it under its id and records the change', async () => {
    const owner = visitor();
    const { id } = await newUpload(owner);
    await uploads.claim(id);
    const first = await uploads.complete(id, receipt(10));
    const outcome = await uploads.reextract(owner, id, { engine: null, lane: 'standard' }, await policyOf(owner));
    expect('queued' in outcome).toBe(true);
    await uploads.claim(id);
    const second = await uploads.complete(id, receipt(11));
    expect(second!.id).toBe(first!.id);
    expect(await receiptsOf(id)).toBe(1);
    const edits = await rows(sql`SELECT kind, changes FROM receipt_edits WHERE receipt_id = ${first!.id}`);
    expect(edits).toEqual([{ kind: 'reextraction', changes: { total: { from: 10, to: 11 } } }]);
  });

  it('keeps the owner’s tags through a re-extraction, beside those a rule gives the new reading', async () => {
    const owner = visitor();
    const { id } = await newUpload(owner);
    await uploads.claim(id);
    await uploads.complete(id, { ...receipt(10), tags: ['client A', 'travel'] });
    await uploads.reextract(owner, id, { engine: null, lane: 'standard' }, await policyOf(owner));
    await uploads.claim(id);
    const again = await uploads.complete(id, { ...receipt(10), tags: ['Travel', 'car'] });
    expect(again!.tags).toEqual(['client A', 'travel', 'car']);
  });

  it('returns a quota unit at most once per upload, whatever ends it', async () => {
    const owner = visitor();
    const policy = await policyOf(owner);
    const { id } = await newUpload(owner, policy);
    expect(await used(owner)).toBe(1);
    const failed = await uploads.fail(id, 'unreadable');
    expect(failed).toMatchObject({ refunded: true, upload: { status: 'failed', error: 'unreadable' } });
    expect(await used(owner)).toBe(0);
    // Ended already: neither a second failure nor a cancel changes the row or the count.
    expect(await uploads.fail(id, 'again')).toBeNull();
    expect(await uploads.cancel(owner, id)).toBeNull();
    // An admin retry takes no unit, and its failure returns none.
    await uploads.retry(id);
    await uploads.claim(id);
    expect(await uploads.fail(id, 'still unreadable')).toMatchObject({ refunded: false });
    // Counters never go below zero on someone else's behalf: a second upload's unit is still counted.
    await newUpload(owner, policy);
    expect(await used(owner)).toBe(1);
  });

  it('returns the unit once when a cancel and a failure race', async () => {
    for (let i = 0; i < 10; i++) {
      const owner = visitor();
      const { id } = await newUpload(owner);
      await newUpload(owner);
      await uploads.claim(id);
      const [cancelled, failed] = await Promise.all([uploads.cancel(owner, id), uploads.fail(id, 'broken')]);
      expect([cancelled, failed].filter(Boolean)).toHaveLength(1);
      expect(await used(owner)).toBe(1);
    }
  });

  it('lets exactly one of a cancel and a completion win when they race', async () => {
    const winners = { cancel: 0, complete: 0 };
    for (let i = 0; i < 20; i++) {
      const owner = visitor();
      const { id } = await newUpload(owner);
      await uploads.claim(id);
      const [cancelled, stored] = await Promise.all([uploads.cancel(owner, id), uploads.complete(id, receipt(5))]);
      expect(Boolean(cancelled) !== Boolean(stored), 'exactly one wins').toBe(true);
      if (cancelled) {
        winners.cancel += 1;
        expect(await statusOf(id)).toBe('cancelled');
        expect(await receiptsOf(id)).toBe(0);
        expect(await used(owner)).toBe(0);
      } else {
        winners.complete += 1;
        expect(await statusOf(id)).toBe('completed');
        expect(await receiptsOf(id)).toBe(1);
        expect(await used(owner)).toBe(1);
      }
    }
    expect(winners.cancel + winners.complete).toBe(20);
  });

  it('sends a cancelled re-extraction back to the receipt it had', async () => {
    const owner = visitor();
    const { id } = await newUpload(owner);
    await uploads.claim(id);
    await uploads.complete(id, receipt(7));
    await uploads.reextract(owner, id, { engine: null, lane: 'standard' }, await policyOf(owner));
    expect(await used(owner)).toBe(2);
    const cancelled = await uploads.cancel(owner, id);
    expect(cancelled).toMatchObject({ refunded: true, upload: { status: 'completed', progress: 100 } });
    expect(await used(owner)).toBe(1);
    expect((await reads.view(owner, id))!.receipt!.total).toBe(7);
  });

  it('reserves exactly the units left when uploads arrive at once', async () => {
    const owner = visitor();
    const policy = await policyOf(owner, 5);
    const created = await Promise.all(Array.from({ length: 20 }, () => uploads.create(
      { id: randomUUID(), owner, filename: 'r.jpg', mimeType: 'image/jpeg', size: 3, sha256: randomUUID(), currencyCode: null, lane: 'standard' },
      policy,
    )));
    expect(created.filter(Boolean)).toHaveLength(5);
    expect(await used(owner)).toBe(5);
    expect(await reads.list(owner)).toHaveLength(5);
  });

  it('takes a unit for every subject or for none: an anonymous visitor is also counted per address', async () => {
    const clientIp = `192.0.2.${Math.floor(Math.random() * 250)}`;
    const first = { ...visitor(), clientIp };
    const second = { ...visitor(), clientIp };
    for (let i = 0; i < 5; i++) expect(await newUpload(first, await policyOf(first, 5))).toBeTruthy();
    // The address is at its limit: the second visitor's own counter is left untouched.
    expect(await uploads.create(
      { id: randomUUID(), owner: second, filename: 'r.jpg', mimeType: 'image/jpeg', size: 3, sha256: randomUUID(), currencyCode: null, lane: 'standard' },
      await policyOf(second, 5),
    )).toBeNull();
    expect(await rows(sql`SELECT used FROM quota_usage WHERE subject = ${`anon:${second.anonId}`}`)).toEqual([]);
  });

  it('flags the same file again as a duplicate of the live earlier upload', async () => {
    const owner = visitor();
    const first = await newUpload(owner, undefined, 'same-bytes');
    const again = await newUpload(owner, undefined, 'same-bytes');
    expect(again).toMatchObject({ duplicateOf: first.id, duplicateReason: 'same-file' });
    expect(await duplicates.keep(owner, again.id)).toBe(true);
    expect((await reads.view(owner, again.id))!.duplicateOf).toBeUndefined();
  });
});
