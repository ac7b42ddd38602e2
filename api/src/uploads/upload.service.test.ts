import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LANE_PRIORITY, RECEIPT_JOB, RECEIPT_QUEUE, USER_MESSAGES } from '@receipts/common';
import { createReceiptQueue, createRedis, LocalFileStore, onCancelRequests, ownerRoom, QuotaAnnouncer, ReceiptJobs, type QuotaService } from '@receipts/infra';
import { Worker } from 'bullmq';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubscriber } from '../../../tests/support/accounts.js';
import { anonymousOwner as visitor, extracted, openUploadStack, pngFile as png, type UploadStack } from '../../../tests/support/upload-stack.js';
import { HttpError } from '../http-error.js';
import type { Owner } from '../session.js';
import { UploadService } from './upload.service.js';

// Real PostgreSQL, Redis and BullMQ under a prefix of this run's own; no worker runs, so each
// test moves the upload itself where a worker would.
describe('upload service', () => {
  let stack: UploadStack;
  let quota: QuotaService;
  let service: UploadService;

  beforeAll(async () => {
    stack = await openUploadStack();
    quota = stack.quota;
    service = new UploadService(stack);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  const used = async (owner: Owner) => (await quota.view(owner)).used;
  const storedFiles = async () => (await readdir(stack.storage, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
  const eventsFor = (id: string) => stack.events.filter((m) => 'id' in m.payload && m.payload.id === id).map((m) => m.event);
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  };
  const receipt = extracted();
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (err: unknown) => (err instanceof HttpError ? { status: err.status, code: err.code } : err),
    );

  it('turns a file into a stored upload and a job named by its id, in its lane', async () => {
    const owner = visitor();
    const upload = await service.create(owner, png());
    await service.stored(upload.id);
    const job = await stack.queue.getJob(upload.id);
    expect(job).toMatchObject({ name: RECEIPT_JOB, data: { uploadId: upload.id, lane: 'standard' }, priority: LANE_PRIORITY.standard });
    expect((await stack.files.read(upload.id)).length).toBeGreaterThan(8);
    expect(await used(owner)).toBe(1);
    await until(() => stack.events.some((m) => m.event === 'quota:updated' && m.room === `anon:${owner.anonId}`));
    expect(stack.events.find((m) => m.event === 'quota:updated' && m.room === `anon:${owner.anonId}`)?.payload).toMatchObject({ used: 1 });
  });

  it('announces the quota figures of uploads made at once in a few batches, the last read after the last upload', async () => {
    const owner = visitor();
    const room = ownerRoom(owner);
    const published = () => stack.events.filter((m) => m.event === 'quota:updated' && m.room === room).map((m) => (m.payload as { used: number }).used);
    await Promise.all(Array.from({ length: 5 }, () => service.create(owner, png())));
    await until(() => published().at(-1) === 5);
    expect(published().at(-1)).toBe(5);

    // Asked for ten times in one go: one read, one publish.
    const failures: unknown[] = [];
    const reads: number[] = [];
    const counting = Object.assign(Object.create(quota) as QuotaService, {
      views: (owners: Parameters<QuotaService['views']>[0]) => {
        reads.push(owners.length);
        return quota.views(owners);
      },
    });
    const announcer = new QuotaAnnouncer(counting, stack.bus, (err) => failures.push(err));
    // An owner of its own, so no announcement of the uploads above can land among these.
    const lone = visitor();
    const loneRoom = ownerRoom(lone);
    const loneFigures = () => stack.events.filter((m) => m.event === 'quota:updated' && m.room === loneRoom);
    await Promise.all(Array.from({ length: 10 }, () => announcer.announce(lone, loneRoom)));
    await new Promise((r) => setTimeout(r, 100));
    expect(loneFigures()).toHaveLength(1);
    expect(reads).toEqual([1]);

    // Owners asking at once are read together; one asking while that batch runs is read after it, in a batch of its own.
    const others = Array.from({ length: 3 }, () => visitor());
    for (const other of others) await service.create(other, png());
    reads.length = 0;
    const together = Promise.all(others.map((other) => announcer.announce(other, ownerRoom(other))));
    await until(() => reads.length === 1);
    await announcer.announce(owner, room);
    await together;
    expect(reads).toEqual([3, 1]);
    for (const other of others) expect(stack.events.filter((m) => m.event === 'quota:updated' && m.room === ownerRoom(other)).at(-1)?.payload).toMatchObject({ used: 1 });
    expect(failures).toEqual([]);
  });

  it('refuses an upload over the quota and keeps nothing of it', async () => {
    const owner = visitor();
    for (let i = 0; i < 5; i++) await service.create(owner, png());
    await service.drain();
    const before = await storedFiles();
    expect(await refusal(service.create(owner, png()))).toEqual({ status: 429, code: 'QUOTA_EXCEEDED' });
    expect(await storedFiles()).toBe(before);
    expect(await service.list(owner)).toHaveLength(5);
  });

  it('asked to, refuses a file the owner uploaded before, naming it, before a unit is taken or a byte stored', async () => {
    const owner = visitor();
    const file = png();
    const first = await service.create(owner, file, undefined, { ifDuplicate: 'ask' });
    await service.stored(first.id);
    const before = await storedFiles();
    const refused = await service.create(owner, { ...file, originalname: 'again.png' }, undefined, { ifDuplicate: 'ask' }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({
      status: 409,
      code: 'DUPLICATE_FILE',
      message: USER_MESSAGES.duplicateFile('receipt.png', first.createdAt.toISOString().slice(0, 10)),
      details: { duplicateOf: { uploadId: first.id, filename: 'receipt.png', uploadedAt: first.createdAt.toISOString() } },
    });
    expect(await used(owner)).toBe(1);
    expect(await storedFiles()).toBe(before);
    expect(await service.list(owner)).toHaveLength(1);

    // Another owner's copy, another file, or one sent without asking are taken; the last is flagged.
    expect((await service.create(visitor(), file, undefined, { ifDuplicate: 'ask' })).duplicateOf).toBeNull();
    expect((await service.create(owner, png(), undefined, { ifDuplicate: 'ask' })).duplicateOf).toBeNull();
    const again = await service.create(owner, file);
    expect(again).toMatchObject({ duplicateOf: first.id, duplicateReason: 'same-file' });
    expect(await used(owner)).toBe(3);

    // A copy whose upload failed is no copy: nothing came of it.
    const other = visitor();
    const failed = await service.create(other, file);
    await stack.uploads.fail(failed.id, 'unreadable');
    expect((await service.create(other, file, undefined, { ifDuplicate: 'ask' })).duplicateOf).toBeNull();
    await service.drain();
  });

  it('says where each waiting upload is in the queue, express before standard, and when it should be read', async () => {
    // Uploads other tests left waiting are in the queue too: counted first.
    const waiting = async (lane: string) =>
      Number(((await stack.database.db.execute(sql`SELECT count(*) AS n FROM uploads WHERE status = 'queued' AND lane = ${lane}`)) as unknown as { rows: Array<{ n: string }> }).rows[0]!.n);
    const [express, standard] = [await waiting('express'), await waiting('standard')];
    const owner = visitor();
    const first = await service.create(owner, png());
    const second = await service.create(owner, png());
    const subscriber = await createSubscriber(stack.database.db);
    const subscriberOwner = { userId: subscriber.userId, anonId: null, clientIp: null };
    const fast = await service.create(subscriberOwner, png());
    expect(fast.lane).toBe('express');
    await service.drain();

    // Nothing finished lately: no estimate.
    expect(await service.queuePlaces(owner)).toEqual({
      uploads: [
        { id: first.id, ahead: express + 1 + standard, waitMs: null },
        { id: second.id, ahead: express + 1 + standard + 1, waitMs: null },
      ],
    });
    expect((await service.queuePlaces(subscriberOwner)).uploads).toEqual([{ id: fast.id, ahead: express, waitMs: null }]);

    // Three finished in the window: one every 200 s, so the estimate is (ahead + 1) × 200 s.
    const other = visitor();
    for (let i = 0; i < 3; i++) {
      const done = await service.create(other, png());
      await stack.uploads.claim(done.id);
      await stack.uploads.complete(done.id, receipt);
    }
    const [place] = (await new UploadService(stack).queuePlaces(subscriberOwner)).uploads;
    const finished = Number(
      ((await stack.database.db.execute(sql`SELECT count(*) AS n FROM uploads WHERE status IN ('completed', 'failed') AND finished_at > now() - interval '10 minutes'`)) as unknown as {
        rows: Array<{ n: string }>;
      }).rows[0]!.n,
    );
    expect(place).toEqual({ id: fast.id, ahead: express, waitMs: Math.round(((express + 1) * 600_000) / finished) });
    // Another owner's waiting uploads are not listed, only counted.
    expect((await service.queuePlaces(visitor())).uploads).toEqual([]);
  });

  it('cancels a waiting upload once: the job leaves the queue and the unit comes back', async () => {
    const owner = visitor();
    const { id } = await service.create(owner, png());
    expect((await service.cancel(owner, id)).status).toBe('cancelled');
    expect(await stack.queue.getJob(id)).toBeUndefined();
    expect(await used(owner)).toBe(0);
    expect(await refusal(service.cancel(owner, id))).toEqual({ status: 409, code: 'NOT_CANCELLABLE' });
    expect(await used(owner)).toBe(0);
    await until(() => eventsFor(id).includes('upload:cancelled'));
    expect(eventsFor(id)).toEqual(['upload:cancelled']);
    // Someone else's upload is not found, never cancelled.
    expect(await refusal(service.cancel(visitor(), id))).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('asks the worker holding an active job to abort it', async () => {
    const { redisUrl, prefix } = stack.database.services;
    const asked: string[] = [];
    const listener = createRedis(redisUrl);
    await onCancelRequests(listener, prefix, (id) => asked.push(id));
    // A worker that takes the job and holds its lock, as one running the pipeline does.
    const holder = new Worker(RECEIPT_QUEUE, null, { connection: createRedis(redisUrl), prefix });
    holder.on('error', () => undefined); // closed below; a test worker has nothing to report
    // Only this test's job waits, so it is the one the worker takes.
    await stack.queue.drain();
    const owner = visitor();
    const { id } = await service.create(owner, png());
    await service.stored(id);
    const job = await holder.getNextJob('holder-token');
    expect(job?.id).toBe(id);
    await stack.uploads.claim(id);

    expect((await service.cancel(owner, id)).status).toBe('cancelled');
    await until(() => asked.includes(id));
    expect(asked).toContain(id);
    expect(await used(owner)).toBe(0);
    await holder.close(true);
    listener.disconnect();
  });

  it('lets exactly one of a cancel and the worker completing win', async () => {
    for (let i = 0; i < 10; i++) {
      const owner = visitor();
      const { id } = await service.create(owner, png());
      await stack.uploads.claim(id);
      const [cancel, stored] = await Promise.all([refusal(service.cancel(owner, id)), stack.uploads.complete(id, receipt)]);
      const view = await service.get(owner, id);
      if (stored) {
        expect(cancel).toEqual({ status: 409, code: 'NOT_CANCELLABLE' });
        expect(view).toMatchObject({ status: 'completed', receipt: { total: 3 } });
        expect(await used(owner)).toBe(1);
      } else {
        expect(cancel).toBeNull();
        expect(view.status).toBe('cancelled');
        expect(view.receipt).toBeUndefined();
        expect(await used(owner)).toBe(0);
      }
    }
  });

  it('keeps an accepted upload whose job could not be queued, with its file, for the recovery sweep to queue', async () => {
    const { redisUrl, prefix } = stack.database.services;
    const gone = createRedis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    gone.on('error', () => undefined); // disconnected on purpose
    gone.disconnect();
    const broken = createReceiptQueue(gone, prefix);
    const withoutQueue = new UploadService({ ...stack, jobs: new ReceiptJobs(broken, stack.producer, { prefix, attempts: 1, log: stack.log }) });
    const owner = visitor();
    const { id } = await withoutQueue.create(owner, png());
    await withoutQueue.stored(id);
    expect(await stack.queue.getJob(id)).toBeUndefined();
    expect((await service.get(owner, id)).status).toBe('queued');
    expect((await stack.files.read(id)).length).toBeGreaterThan(8);
    expect(await used(owner)).toBe(1);
    expect((await stack.uploadReads.stale(new Date(Date.now() + 1000), new Date(0), 1000)).map((u) => u.id)).toContain(id);
  });

  it('fails an accepted upload whose file cannot be stored: the unit back, its tabs told, no job', async () => {
    // A real directory store whose root lies under a plain file: every write fails (ENOTDIR).
    const blocker = path.join(await mkdtemp(path.join(os.tmpdir(), 'unwritable-')), 'a-file');
    await writeFile(blocker, 'not a folder');
    const unwritable = new UploadService({ ...stack, files: new LocalFileStore(path.join(blocker, 'originals')) });
    const owner = visitor();
    const { id } = await unwritable.create(owner, png());
    await unwritable.stored(id);
    expect(await service.get(owner, id)).toMatchObject({ status: 'failed', error: USER_MESSAGES.originalNotStored });
    expect(await used(owner)).toBe(0);
    expect(await stack.queue.getJob(id)).toBeUndefined();
    await until(() => eventsFor(id).includes('upload:failed'));
    expect(stack.events.find((m) => m.event === 'upload:failed' && 'id' in m.payload && m.payload.id === id)?.payload).toEqual({ id, error: USER_MESSAGES.originalNotStored });
  });

  it('deletes an active upload after cancelling it, with its file, and returns its unit', async () => {
    const owner = visitor();
    const { id } = await service.create(owner, png());
    await service.remove(owner, id);
    expect(await stack.queue.getJob(id)).toBeUndefined();
    expect(await refusal(service.get(owner, id))).toEqual({ status: 404, code: 'NOT_FOUND' });
    await expect(stack.files.read(id)).rejects.toThrow();
    expect(await used(owner)).toBe(0);
  });

  it('extracts a finished upload again through the queue for one more unit, and refuses while it runs', async () => {
    const owner = visitor();
    const { id } = await service.create(owner, png());
    await stack.uploads.claim(id);
    await stack.uploads.complete(id, receipt);
    const queued = await service.reextract(owner, id);
    expect(queued).toMatchObject({ id, status: 'queued' });
    expect((await stack.queue.getJob(id))?.data).toEqual({ uploadId: id, lane: 'standard' });
    expect(await used(owner)).toBe(2);
    expect(await refusal(service.reextract(owner, id))).toEqual({ status: 409, code: 'CONFLICT' });
    expect(await used(owner)).toBe(2);
    // The earlier receipt stays until the new one replaces it.
    expect((await service.get(owner, id)).receipt?.total).toBe(3);
  });

  it('re-extracts with an engine only when this server runs it, and says which one is missing', async () => {
    const owner = visitor();
    const { id } = await service.create(owner, png());
    await stack.uploads.claim(id);
    await stack.uploads.complete(id, receipt);
    const refused = await service.reextract(owner, id, 'vlm').catch((err: unknown) => err);
    expect(refused).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: 'The vision model is not configured on this server.' });
    expect(await used(owner)).toBe(1);
    const withVlm = new UploadService({ ...stack, engines: ['local', 'vlm'] });
    expect(await withVlm.reextract(owner, id, 'vlm')).toMatchObject({ id, status: 'queued', engine: 'vlm' });
  });
});
