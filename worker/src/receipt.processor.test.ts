import { createHash, randomUUID } from 'node:crypto';
import { PIPELINE_STEPS, processingFailedMessage, USER_MESSAGES, WEBHOOK_EVENTS, webhookPayloadSchema, type ReceiptJob } from '@receipts/common';
import { ABORT_REASONS, BillingRepository, createLogger, createMailer, createPersonalWorkspace, MerchantRuleRepository, parseConfig, schema, type JobOutcome, type JobRun } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printedReceipt } from '../../tests/support/printed-receipt.js';
import { anonymousOwner, openUploadStack, type UploadStack } from '../../tests/support/upload-stack.js';
import { notifyIfBatchDone } from './notifications/batch-notification.js';
import { createOcrEnginesFromConfig } from './pipeline/create-ocr-engine.js';
import { inProcessPipeline, type PipelineRunner } from './pipeline/pipeline.runner.js';
import { createReceiptProcessor, type ProcessorDeps } from './receipt.processor.js';

// Real PostgreSQL, Redis, file store and pipeline: each run of a job ends in the outcome its steps
// came to, and leaves the upload, its file and its owner's tabs as that outcome says.
describe('receipt processor', { timeout: 60_000 }, () => {
  const config = parseConfig({ ROLES: 'api,worker', WORKER_CONCURRENCY: '1', LOG_LEVEL: 'silent' });
  const log = createLogger({ level: 'silent', role: 'test' });
  let stack: UploadStack;
  let pipeline: PipelineRunner;
  let deps: ProcessorDeps;
  let receipt: Buffer;

  beforeAll(async () => {
    stack = await openUploadStack();
    receipt = await printedReceipt();
    pipeline = inProcessPipeline(createOcrEnginesFromConfig(config, 1, log));
    const { db, services } = stack.database;
    const mailer = createMailer({ from: 'receipts@example.test', dataDir: stack.storage, log });
    deps = {
      uploads: stack.uploads,
      uploadReads: stack.uploadReads,
      duplicates: stack.duplicates,
      quota: stack.quota,
      bus: stack.bus,
      webhooks: stack.webhooks,
      files: stack.files,
      rules: new MerchantRuleRepository(db),
      pipeline,
      log,
      jobTimeoutMs: 30_000,
      notifyBatchDone: (upload) =>
        notifyIfBatchDone({ billing: new BillingRepository(db), uploadReads: stack.uploadReads, mailer, redis: stack.producer, prefix: services.prefix, publicUrl: 'http://localhost', log }, upload),
    };
  }, 120_000);

  afterAll(async () => {
    await pipeline?.close();
    await stack?.close();
  });

  /** A queued upload of an anonymous visitor of its own (or of `userId`'s account), with `bytes` stored as its original (none when null). */
  async function queued(bytes: Buffer | null, userId?: string) {
    const owner = userId ? { userId, anonId: null, clientIp: null } : anonymousOwner();
    const id = randomUUID();
    const upload = { id, owner, filename: 'receipt.png', mimeType: 'image/png', size: bytes?.length ?? 1, currencyCode: null, lane: 'standard' as const };
    const row = await stack.uploads.create({ ...upload, sha256: createHash('sha256').update(id).digest('hex') }, await stack.quota.policy(owner));
    if (bytes) await stack.files.put(id, bytes);
    return { id: row!.id, owner };
  }

  const run = (id: string, more: Partial<JobRun<ReceiptJob>> = {}): JobRun<ReceiptJob> => ({
    id,
    data: { uploadId: id, lane: 'standard', requestId: `req-${id}` },
    attempt: 1,
    attempts: 1,
    ...more,
  });

  const stateOf = async (id: string) => {
    const [row] = await stack.database.db.select({ status: schema.uploads.status, error: schema.uploads.error }).from(schema.uploads).where(eq(schema.uploads.id, id));
    return row ?? null;
  };
  /** An account with a webhook endpoint for every event: its id and the endpoint's. */
  async function accountWithWebhook() {
    const [user] = await stack.database.db.insert(schema.users).values({ email: `${randomUUID()}@example.test`, username: 'u', passwordHash: 'x' }).returning();
    await createPersonalWorkspace(stack.database.db, user!);
    const endpoint = await stack.webhookRows.createEndpoint({ userId: user!.id, url: 'https://hooks.example.com', events: [...WEBHOOK_EVENTS], secret: 'whsec_x' }, 10);
    return { userId: user!.id, endpointId: endpoint!.id };
  }
  const webhookBodies = async (endpointId: string) => (await stack.webhookRows.deliveries(endpointId, 10)).map((d) => webhookPayloadSchema.parse(JSON.parse(d.payload)));
  const eventsFor = (id: string) => stack.events.filter((m) => 'id' in m.payload && m.payload.id === id);
  const settled = () => new Promise((r) => setTimeout(r, 100));

  it('claims, reads, runs the pipeline, stores the pictures, completes and announces: done', async () => {
    const { id } = await queued(receipt);
    expect(await createReceiptProcessor(deps)(run(id))).toEqual({ kind: 'done' });
    expect(await stateOf(id)).toEqual({ status: 'completed', error: null });
    expect(await stack.files.readPage(id, 0)).not.toBeNull();
    await settled();
    const events = eventsFor(id);
    expect(events.filter((e) => e.event === 'upload:progress').map((e) => e.payload)).toEqual(
      PIPELINE_STEPS.map((s) => expect.objectContaining({ progress: s.progress, step: s.step })),
    );
    expect(events.at(-1)).toMatchObject({ event: 'upload:completed', payload: { receipt: { total: 10.4 } } });
  });

  it('records an account’s receipt.completed webhook with the receipt as the api shows it; an anonymous upload records none', async () => {
    const { userId, endpointId } = await accountWithWebhook();
    const { id } = await queued(receipt, userId);
    expect(await createReceiptProcessor(deps)(run(id))).toEqual({ kind: 'done' });
    const [body] = await webhookBodies(endpointId);
    expect(body).toMatchObject({ type: 'receipt.completed', data: { uploadId: id, filename: 'receipt.png', receipt: { total: 10.4 } } });
    const view = (await stack.uploadReads.view({ userId, anonId: null }, id))!.receipt!;
    // As the api answers it: JSON, absent fields left out.
    expect(body!.data).toEqual({ uploadId: id, filename: 'receipt.png', receiptId: view.id, receipt: JSON.parse(JSON.stringify(view)) });
  });

  it('records an account’s receipt.failed webhook with the reason the user is shown', async () => {
    const { userId, endpointId } = await accountWithWebhook();
    const { id } = await queued(null, userId);
    await createReceiptProcessor(deps)(run(id, { attempts: 3 }));
    expect(await webhookBodies(endpointId)).toEqual([
      expect.objectContaining({ type: 'receipt.failed', data: { uploadId: id, filename: 'receipt.png', error: 'The uploaded file is no longer stored. Please upload it again.' } }),
    ]);
  });

  it('is done at once with an upload that already ended, and leaves it so', async () => {
    const { id, owner } = await queued(receipt);
    await stack.uploads.cancel(owner, id);
    expect(await createReceiptProcessor(deps)(run(id))).toEqual({ kind: 'done' });
    expect(await stateOf(id)).toMatchObject({ status: 'cancelled' });
    expect((await stack.files.read(id)).equals(receipt)).toBe(true);
  });

  it('deletes the original of an upload deleted before its file landed', async () => {
    const id = randomUUID();
    await stack.files.put(id, receipt);
    expect(await createReceiptProcessor(deps)(run(id))).toEqual({ kind: 'done' });
    await expect(stack.files.read(id)).rejects.toThrow();
  });

  it.each([
    ['no longer stored', null, 'The uploaded file is no longer stored. Please upload it again.'],
    ['of no kind it reads', Buffer.from('not a picture at all'), USER_MESSAGES.unsupportedFile],
  ])('fails an upload whose original is %s at once, with the reason, and returns its unit', async (_, bytes, message) => {
    const { id } = await queued(bytes);
    const outcome = await createReceiptProcessor(deps)(run(id, { attempts: 3 }));
    expect(outcome).toMatchObject({ kind: 'failed', message });
    expect(await stateOf(id)).toEqual({ status: 'failed', error: message });
    await settled();
    expect(eventsFor(id).map((e) => e.event)).toEqual(['upload:failed']);
    expect(stack.events.some((e) => e.event === 'quota:updated' && e.payload.used === 0)).toBe(true);
  });

  it.each<[string, string, JobOutcome['kind'], string]>([
    ['a cancel', ABORT_REASONS.cancel, 'cancelled', 'processing'],
    ['a shutdown', ABORT_REASONS.shutdown, 'handed-back', 'queued'],
    ['a lost lock', ABORT_REASONS.lockLost, 'lock-lost', 'processing'],
  ])('stops at %s, leaving the upload for whoever has the job next', async (_, reason, kind, status) => {
    const { id } = await queued(receipt);
    const stop = new AbortController();
    stop.abort(reason);
    expect(await createReceiptProcessor(deps)(run(id, { signal: stop.signal }))).toEqual({ kind });
    expect(await stateOf(id)).toMatchObject({ status });
  });

  it('takes a run past its time for a failed attempt: tried again while attempts remain, then failed for the user', async () => {
    const { id } = await queued(receipt);
    const hurried = createReceiptProcessor({ ...deps, jobTimeoutMs: 1 });
    expect(await hurried(run(id, { attempts: 2 }))).toMatchObject({ kind: 'retry', error: { message: `${ABORT_REASONS.timeout} (1 ms)` } });
    expect(await stateOf(id)).toMatchObject({ status: 'processing' });
    const message = processingFailedMessage(`req-${id}`);
    expect(await hurried(run(id, { attempt: 2, attempts: 2 }))).toMatchObject({ kind: 'failed', message });
    expect(await stateOf(id)).toEqual({ status: 'failed', error: message });
  });
});
