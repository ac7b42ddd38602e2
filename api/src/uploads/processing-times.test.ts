import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubscriber } from '../../../tests/support/accounts.js';
import { anonymousOwner as visitor, extracted, openUploadStack, pngFile as png, type UploadStack } from '../../../tests/support/upload-stack.js';
import type { Owner } from '../session.js';
import { UploadService } from './upload.service.js';

// Real PostgreSQL: uploads are completed as a worker would, then their arrival set back by the
// time they are meant to have taken.
describe('processing times', () => {
  let stack: UploadStack;

  beforeAll(async () => {
    stack = await openUploadStack();
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  /** An upload that took `seconds` from arrival to result (or failed), arriving `agoHours` hours back. */
  async function took(owner: Owner, seconds: number, { agoHours = 0, failed = false } = {}): Promise<void> {
    const service = new UploadService(stack);
    const { id } = await service.create(owner, png());
    await service.stored(id);
    await stack.uploads.claim(id);
    if (failed) await stack.uploads.fail(id, 'unreadable');
    else await stack.uploads.complete(id, extracted());
    await stack.database.db.execute(
      sql`UPDATE uploads SET finished_at = now() - make_interval(hours => ${agoHours}), created_at = now() - make_interval(hours => ${agoHours}, secs => ${seconds}) WHERE id = ${id}`,
    );
  }

  it('measures each lane over the last day: the median and the 95th percentile of completed uploads, read at most once a minute', async () => {
    const { userId } = await createSubscriber(stack.database.db);
    const subscriber: Owner = { userId, anonId: null, clientIp: null };
    for (const seconds of [4, 6, 8, 10, 12]) await took(subscriber, seconds);
    // Neither counts: a failure, and an upload that arrived two days ago (a re-extraction's age is not its time).
    await took(subscriber, 1, { failed: true });
    await took(subscriber, 500, { agoHours: 48 });
    for (const seconds of [30, 60]) await took(visitor(), seconds);

    const service = new UploadService(stack);
    const times = await service.processingTimes();
    expect(times.hours).toBe(24);
    const [express, standard] = times.lanes;
    expect(express).toMatchObject({ lane: 'express', receipts: 5 });
    expect(express!.p50Ms).toBeCloseTo(8_000, -2);
    expect(express!.p95Ms).toBeCloseTo(11_600, -2);
    expect(standard).toMatchObject({ lane: 'standard', receipts: 2 });
    expect(standard!.p50Ms).toBeCloseTo(45_000, -2);

    // Asked again within the minute: the same figures, without a query.
    await took(subscriber, 100);
    expect(await service.processingTimes()).toEqual(times);
    expect((await new UploadService(stack).processingTimes()).lanes[0]!.receipts).toBe(6);
  });
});
