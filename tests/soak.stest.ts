// Part of `npm run test:soak` (scripts/soak.ts), which runs it beside the browser and pipeline
// suites while other processes load both cores. Asserts that no job waits while a worker slot
// is free: every upload shows its first step within 30 s of a slot being free for it.
import { JOBS_AHEAD } from '@receipts/worker';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deployment, type DeploymentMode } from './support/deployment.js';
import { madeUpReceipts } from './support/printed-receipt.js';
import { uniqueIp, Visitor } from './support/visitor.js';

const SLOTS = 2;
/** Jobs a worker holds at once: its OCR slots and the job ahead it prepares while one saves. */
const JOBS = SLOTS + JOBS_AHEAD;
const UPLOADS = 8;
const FIRST_STEP_WITHIN_MS = 30_000;

interface Timeline {
  id: string;
  /** When the 202 came back (performance.now()). */
  queuedAt: number;
  /** The first progress event. */
  startedAt: number;
  endedAt: number;
}

/**
 * When a slot was free for `upload`: its queueing, or the moment fewer than JOBS of the uploads
 * queued before it were running (FIFO in one lane: it is next once those have made room).
 */
function slotFreeAt(upload: Timeline, earlier: readonly Timeline[]): number {
  const ends = earlier.map((u) => u.endedAt).sort((a, b) => a - b);
  // With n earlier uploads and JOBS places, it can start once n - JOBS + 1 of them ended.
  const mustEnd = earlier.length - JOBS + 1;
  const roomAt = mustEnd <= 0 ? upload.queuedAt : ends[mustEnd - 1]!;
  return Math.max(upload.queuedAt, roomAt);
}

describe.each<DeploymentMode>(['pglite', 'postgres'])('no job waits while a slot is free, on %s under load', (mode) => {
  let deployment: Deployment;
  let receipts: Buffer[];

  beforeAll(async () => {
    receipts = await madeUpReceipts(UPLOADS);
    deployment = await Deployment.start(mode, { WORKER_CONCURRENCY: String(SLOTS) });
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  it(`every upload shows its first step within ${FIRST_STEP_WITHIN_MS / 1000} s of a free slot`, async () => {
    // Anonymous visitors of their own, a few uploads each (5 a day per visitor).
    const visitors = await Promise.all(
      Array.from({ length: Math.ceil(UPLOADS / 4) }, async () => {
        const v = new Visitor(deployment.baseUrl, uniqueIp());
        await v.connect();
        return v;
      }),
    );
    const uploads: Array<{ visitor: Visitor; id: string; queuedAt: number }> = [];
    for (const [i, bytes] of receipts.entries()) {
      const visitor = visitors[Math.floor(i / 4)]!;
      const { status, body } = await visitor.upload(bytes, `soak-${i}.jpg`);
      expect(status).toBe(202);
      uploads.push({ visitor, id: body.id as string, queuedAt: performance.now() });
    }
    for (const { visitor, id } of uploads) expect((await visitor.waitForEnd(id, 900_000)).event).toBe('upload:completed');

    const timelines: Timeline[] = uploads.map(({ visitor, id, queuedAt }) => {
      const events = visitor.eventsFor(id);
      return { id, queuedAt, startedAt: events.find((e) => e.event === 'upload:progress')!.at, endedAt: events.at(-1)!.at };
    });
    const waits = timelines.map((t, i) => ({ id: t.id, afterFreeSlot: t.startedAt - slotFreeAt(t, timelines.slice(0, i)) }));
    const late = waits.filter((w) => w.afterFreeSlot > FIRST_STEP_WITHIN_MS);
    if (late.length > 0 && mode === 'postgres') {
      // Where each late one was: the server's record tells a queue that held it from an event that was lost.
      const db = new pg.Client({ connectionString: deployment.services.databaseUrl });
      await db.connect();
      const { rows } = await db.query('SELECT id, created_at, started_at, completed_at FROM uploads WHERE id = ANY($1)', [late.map((l) => l.id)]);
      await db.end();
      console.error('late uploads:', late, rows);
    }
    console.log(`${mode}: first step after a free slot, ms:`, waits.map((w) => Math.round(w.afterFreeSlot)).join(', '));
    expect(late).toEqual([]);
    for (const v of visitors) v.close();
  });

  it('uploads cancelled at once while others wait for OCR leave no slot stuck: the next uploads are read', async () => {
    // Three rounds of what a user cancelling a batch does: 2 uploads in OCR, the rest waiting, all
    // cancelled together. A cancelled page that held on to its place in the OCR pool (or took the
    // pool's one wake-up with it) left a job active for ever, its slot lost until restart.
    for (let round = 0; round < 3; round++) {
      const visitor = new Visitor(deployment.baseUrl, uniqueIp());
      await visitor.connect();
      const ids: string[] = [];
      for (const [i, bytes] of receipts.slice(0, 5).entries()) ids.push((await visitor.upload(bytes, `cancel-${round}-${i}.jpg`)).body.id as string);
      await visitor.waitFor(() => ids.filter((id) => visitor.eventsFor(id).length > 0).length >= SLOTS, 300_000, 'every slot to take an upload');
      await Promise.all(ids.map((id) => visitor.request(`/api/ocr/cancel/${id}`, { method: 'POST' })));
      for (const id of ids) expect(['upload:cancelled', 'upload:completed']).toContain((await visitor.waitForEnd(id, 300_000)).event);
      visitor.close();
    }
    const visitor = new Visitor(deployment.baseUrl, uniqueIp());
    await visitor.connect();
    const ids = await Promise.all(receipts.slice(0, SLOTS).map(async (bytes, i) => (await visitor.upload(bytes, `after-${i}.jpg`)).body.id as string));
    for (const id of ids) expect((await visitor.waitForEnd(id, 600_000)).event).toBe('upload:completed');
    visitor.close();
  });
});
