import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { UploadBusMessage } from '@receipts/common';
import {
  connectProducerRedis,
  createLogger,
  createReceiptQueue,
  createRedis,
  createWebhookQueue,
  LocalFileStore,
  QuotaService,
  ReceiptJobs,
  UploadEventBus,
  UploadDuplicateRepository,
  UploadReadRepository,
  UploadRepository,
  WebhookEvents,
  WebhookJobs,
  WebhookRepository,
  type ExtractedReceipt,
  type Logger,
  type ReceiptQueue,
} from '@receipts/infra';
import type { Redis } from 'ioredis';
import { openTestDatabase, type TestDatabase } from './database.js';

/**
 * What the api's upload and library services stand on, all real: a PostgreSQL database, Redis
 * and a BullMQ queue under a prefix of this run's own, a file store in a temporary folder, and
 * every bus event recorded. No worker runs: a test moves an upload where a worker would.
 */
export interface UploadStack {
  database: TestDatabase;
  producer: Redis;
  queue: ReceiptQueue;
  storage: string;
  files: LocalFileStore;
  uploads: UploadRepository;
  uploadReads: UploadReadRepository;
  duplicates: UploadDuplicateRepository;
  quota: QuotaService;
  jobs: ReceiptJobs;
  bus: UploadEventBus;
  /** The webhooks: endpoints and deliveries in the database, their jobs queued on the stack's prefix (no worker sends them). */
  webhookRows: WebhookRepository;
  webhookJobs: WebhookJobs;
  webhooks: WebhookEvents;
  events: UploadBusMessage[];
  log: Logger;
  close(): Promise<void>;
}

export async function openUploadStack(): Promise<UploadStack> {
  const database = await openTestDatabase();
  const { redisUrl, prefix } = database.services;
  const log = createLogger({ level: 'silent', role: 'test' });
  const producer = await connectProducerRedis(redisUrl);
  const queue = createReceiptQueue(producer, prefix);
  const storage = await mkdtemp(path.join(os.tmpdir(), 'upload-stack-'));
  const bus = new UploadEventBus(producer, prefix);
  const subscriber = createRedis(redisUrl);
  const events: UploadBusMessage[] = [];
  await bus.subscribe(subscriber, log, (m) => events.push(m));
  const webhookRows = new WebhookRepository(database.db);
  const webhookJobs = new WebhookJobs(createWebhookQueue(producer, prefix, log));
  return {
    database,
    producer,
    queue,
    storage,
    files: new LocalFileStore(storage),
    uploads: new UploadRepository(database.db),
    uploadReads: new UploadReadRepository(database.db),
    duplicates: new UploadDuplicateRepository(database.db),
    quota: new QuotaService(database.db, []),
    jobs: new ReceiptJobs(queue, producer, { prefix, attempts: 1, log }),
    bus,
    webhookRows,
    webhookJobs,
    webhooks: new WebhookEvents({ webhooks: webhookRows, jobs: webhookJobs, attempts: 3, log }),
    events,
    log,
    async close() {
      subscriber.disconnect();
      await queue.close();
      await webhookJobs.close();
      producer.disconnect();
      await database.close();
      await rm(storage, { recursive: true, force: true });
    },
  };
}

/** An anonymous visitor of their own. */
export const anonymousOwner = () => ({ userId: null, anonId: randomUUID(), clientIp: null });

/** A PNG by its signature, different every time. */
export const pngFile = () => ({ originalname: 'receipt.png', buffer: Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.from(randomUUID())]) });

/** What a worker would store for a receipt of a shop. */
export const extracted = (fields: Partial<ExtractedReceipt> = {}): ExtractedReceipt => ({
  category: 'grocery',
  quality: 0.9,
  items: [],
  rawText: 'SHOP',
  issues: [],
  valid: true,
  total: 3,
  ...fields,
});
