import { createHash, randomUUID } from 'node:crypto';
import {
  engineNotConfiguredMessage,
  isFinal,
  laneFor,
  PROCESSING_TIMES_HOURS,
  QUEUE_RATE_WINDOW_MS,
  quotaExceededMessage,
  sniffMimeType,
  USER_MESSAGES,
  waitEstimateMs,
  type EngineName,
  type ProcessingTimes,
  type QueuePlaces,
  type UploadView,
} from '@receipts/common';
import {
  failUpload,
  metrics,
  notifyQuota,
  ownerRoom,
  QuotaAnnouncer,
  type FileStore,
  type Logger,
  type QuotaService,
  type ReceiptJobs,
  type UploadDuplicateRepository,
  type UploadEventBus,
  type UploadReadRepository,
  type UploadRepository,
  type UploadRow,
  type WebhookEmitter,
} from '@receipts/infra';
import { HttpError, notFound } from '../http-error.js';
import type { Owner } from '../session.js';

export interface UploadServiceDeps {
  uploads: UploadRepository;
  uploadReads: UploadReadRepository;
  duplicates: UploadDuplicateRepository;
  jobs: ReceiptJobs;
  quota: QuotaService;
  files: FileStore;
  bus: UploadEventBus;
  /** The account's webhooks: a cancel, and an upload failed for want of storage, are events. */
  webhooks: WebhookEmitter;
  /** Engines this deployment can run (Document AI and the vision model only when configured); the local one when not given. */
  engines?: readonly EngineName[];
  log: Logger;
}

export interface IncomingFile {
  originalname: string;
  buffer: Buffer;
  /** The bytes' SHA-256 in hex, when worked out as they arrived; else here. */
  sha256?: string;
}

/** Processing times change slowly and every dashboard view asks: read at most once a minute. */
const PROCESSING_TIMES_TTL_MS = 60_000;
/** Every page with a waiting upload asks every few seconds: the finishing rate is read at most every 15 s. */
const FINISHING_RATE_TTL_MS = 15_000;

/**
 * A database read shared by the requests of `ttlMs`: many pages ask, the figure changes slowly. A
 * failed read is not kept: the next request asks again.
 */
class RecentRead<T> {
  private last: { at: number; read: Promise<T> } | null = null;

  constructor(private readonly ttlMs: number) {}

  get(read: () => Promise<T>): Promise<T> {
    const now = Date.now();
    if (!this.last || now - this.last.at > this.ttlMs) {
      const reading = read();
      this.last = { at: now, read: reading };
      reading.catch(() => {
        if (this.last?.read === reading) this.last = null;
      });
    }
    return this.last.read;
  }
}

const unavailable = () =>
  new HttpError(503, 'SERVICE_UNAVAILABLE', 'The processing queue is unavailable right now. Please try again in a minute.');

/**
 * Uploads: where a file becomes a stored upload and a queued job, and where one is cancelled,
 * extracted again or deleted. State changes go through the upload repository, jobs through
 * the receipt jobs of the queue module.
 */
export class UploadService {
  private readonly announcer: QuotaAnnouncer;
  /** Accepted uploads whose file is being stored, by id. */
  private readonly storing = new Map<string, Promise<boolean>>();
  private readonly times = new RecentRead<ProcessingTimes>(PROCESSING_TIMES_TTL_MS);
  /** How many uploads were finished in the rate window. */
  private readonly finishing = new RecentRead<number>(FINISHING_RATE_TTL_MS);

  constructor(private readonly deps: UploadServiceDeps) {
    this.announcer = new QuotaAnnouncer(deps.quota, deps.bus, (err) =>
      deps.log.warn({ err: (err as Error).message }, 'quota figures not published; clients see them on their next sync'),
    );
  }

  /**
   * Checks the file and records the upload with its quota unit, in one statement; that is all an
   * upload waits for. Its file is then stored and its job queued after the answer (storing is
   * the slowest part of accepting a file, and its writes queue behind every other upload's):
   * the job is queued only once the file is stored, a store that fails fails the upload and
   * returns its unit, and a job that could not be queued is left to the recovery sweep, which
   * queues any upload without a job. `stored` tells when that is done; `drain` waits for all.
   */
  async create(
    owner: Owner,
    file: IncomingFile,
    currencyCode?: string,
    context: { requestId?: string; ifDuplicate?: 'ask' | 'upload' } = {},
  ): Promise<UploadRow> {
    const { uploads, jobs, quota, log } = this.deps;
    if (file.buffer.length === 0) throw new HttpError(400, 'FILE_EMPTY', USER_MESSAGES.fileEmpty);
    const mimeType = sniffMimeType(file.buffer);
    if (!mimeType) {
      throw new HttpError(415, 'UNSUPPORTED_FILE_TYPE', USER_MESSAGES.unsupportedFile);
    }
    // Refuse before writing anything when the queue cannot take the job.
    if (!jobs.connected()) throw unavailable();
    const sha256 = this.sha256Of(file);
    if (context.ifDuplicate === 'ask') {
      // Known on arrival: asked before a unit is taken or a page read. (Two copies sent at once both
      // pass; the insert then flags the later one, as without asking.)
      const earlier = await this.deps.duplicates.sameFile(owner, sha256);
      if (earlier) {
        const uploadedAt = earlier.createdAt.toISOString();
        throw new HttpError(409, 'DUPLICATE_FILE', USER_MESSAGES.duplicateFile(earlier.filename, uploadedAt.slice(0, 10)), {
          duplicateOf: { uploadId: earlier.id, filename: earlier.filename, uploadedAt },
        });
      }
    }
    const policy = await quota.policy(owner);
    const lane = laneFor(policy);
    const id = randomUUID();
    const row = await uploads.create(
      {
        id,
        owner,
        filename: file.originalname || 'unknown',
        mimeType,
        size: file.buffer.length,
        sha256,
        currencyCode: currencyCode ?? null,
        lane,
      },
      policy,
    );
    if (!row) throw new HttpError(429, 'QUOTA_EXCEEDED', quotaExceededMessage(policy.signedIn));
    const storing = this.storeAndQueue(row, file.buffer, context.requestId).finally(() => this.storing.delete(id));
    this.storing.set(id, storing);
    metrics.uploadSize.observe({ mime_type: mimeType }, file.buffer.length);
    // Not awaited: the 202 does not wait for the badge's figures (QuotaAnnouncer reports its own failures).
    void this.announcer.announce(owner, ownerRoom(row));
    return row;
  }

  /** The file's SHA-256 in hex, worked out as it arrived or now. */
  sha256Of(file: IncomingFile): string {
    file.sha256 ??= createHash('sha256').update(file.buffer).digest('hex');
    return file.sha256;
  }

  /**
   * Resolves once the upload's file is stored and its job queued, or its upload failed for want
   * of storage: false then, true otherwise (at once for an upload not being stored).
   */
  async stored(id: string): Promise<boolean> {
    return (await this.storing.get(id)) ?? true;
  }

  /**
   * How long receipts took on each lane over the last day (what the dashboard and pricing say
   * instead of a promise), asked of the database at most once a minute.
   */
  processingTimes(): Promise<ProcessingTimes> {
    return this.times.get(() => this.deps.uploadReads.processingTimes(PROCESSING_TIMES_HOURS).then((lanes) => ({ lanes, hours: PROCESSING_TIMES_HOURS })));
  }

  /**
   * Where each of the owner's waiting uploads is in the queue, and about when it will be read,
   * from the rate receipts were finished at over the last minutes (read at most every 15 s).
   */
  async queuePlaces(owner: Owner): Promise<QueuePlaces> {
    const [places, finished] = await Promise.all([
      this.deps.uploadReads.queuePlaces(owner),
      this.finishing.get(() => this.deps.uploadReads.finishedWithin(QUEUE_RATE_WINDOW_MS)),
    ]);
    return { uploads: places.map(({ id, ahead }) => ({ id, ahead, waitMs: waitEstimateMs(ahead, finished) })) };
  }

  /** Waits for every upload still being stored (shutdown: an accepted upload is not left without its file). */
  async drain(): Promise<void> {
    await Promise.all(this.storing.values());
  }

  /** Stores an accepted upload's file, then queues its job; whether the file was stored. Never rejects (failures are recorded and logged). */
  private async storeAndQueue(row: UploadRow, bytes: Buffer, requestId: string | undefined): Promise<boolean> {
    const { files, jobs, log } = this.deps;
    try {
      await files.put(row.id, bytes);
    } catch (err) {
      log.error({ err, uploadId: row.id, requestId }, 'original not stored; upload failed');
      await files.delete(row.id).catch((cleanup: unknown) => log.warn({ err: cleanup, uploadId: row.id }, 'partial original not deleted'));
      await this.failAccepted(row, USER_MESSAGES.originalNotStored);
      return false;
    }
    try {
      await jobs.enqueue({ uploadId: row.id, lane: row.lane, requestId });
      log.info({ uploadId: row.id, requestId, lane: row.lane, mimeType: row.mimeType, size: row.size }, 'upload queued');
    } catch (err) {
      // The upload stays queued with its file: the recovery sweep queues its job once Redis answers.
      log.warn({ err, uploadId: row.id, requestId }, 'job not queued; the recovery sweep queues it');
    }
    return true;
  }

  /** Ends an accepted upload whose file could not be stored: failed, its unit back, its tabs told. */
  private async failAccepted(row: UploadRow, message: string): Promise<void> {
    try {
      await failUpload(this.deps, row.id, message);
    } catch (err) {
      // The row stays queued without a file: the recovery sweep queues it, and its job fails for want of the original.
      this.deps.log.error({ err, uploadId: row.id }, 'failed upload not recorded; the recovery sweep ends it');
    }
  }

  async list(owner: Owner): Promise<UploadView[]> {
    return this.deps.uploadReads.list(owner);
  }

  /** The caller's upload; someone else's is reported as not found, never as forbidden. */
  async get(owner: Owner, id: string): Promise<UploadView> {
    const view = await this.deps.uploadReads.view(owner, id);
    if (!view) throw notFound('Upload not found');
    return view;
  }

  /**
   * Cancels a queued or processing upload: the row is marked (and its unit returned) first, so
   * a worker that finishes in the meantime cannot overwrite the cancellation; then a waiting
   * job leaves the queue and an active one is aborted by the worker holding it. A cancelled
   * re-extraction goes back to the receipt it had.
   */
  async cancel(owner: Owner, id: string): Promise<UploadView> {
    const { uploads, jobs, quota, bus } = this.deps;
    const current = await this.get(owner, id);
    const ended = await uploads.cancel(owner, id);
    if (!ended) {
      throw new HttpError(409, 'NOT_CANCELLABLE', `This upload has already ${current.status === 'completed' ? 'completed' : 'ended'}.`);
    }
    // Recorded at once, before anything below can fail; it never throws.
    const status = ended.upload.status === 'completed' ? 'completed' : 'cancelled';
    await this.deps.webhooks.emit(ended.upload.userId, 'upload.cancelled', { uploadId: id, filename: ended.upload.filename, status });
    // A job queued after its file is stored would outlive the cancel: it is taken out once it is in.
    await this.stored(id);
    await jobs.cancel(id);
    if (ended.refunded) await notifyQuota(quota, bus, ended.upload);
    const view = await this.get(owner, id);
    const room = ownerRoom(ended.upload);
    const published = view.receipt
      ? bus.publish(room, 'upload:completed', { id, receipt: view.receipt, duplicateOf: view.duplicateOf })
      : bus.publish(room, 'upload:cancelled', { id });
    await published.catch((err: unknown) => this.notPublished(err, id));
    return view;
  }

  /**
   * Runs extraction again on a stored original, through the same queue, lane and live progress
   * as an upload. It costs a quota unit like any extraction (returned if it fails or is
   * cancelled); the earlier receipt stays until the new one replaces it.
   */
  async reextract(owner: Owner, id: string, engine?: EngineName): Promise<UploadRow> {
    const { uploads, jobs, quota, log } = this.deps;
    if (engine && !(this.deps.engines ?? ['local']).includes(engine)) {
      throw new HttpError(400, 'VALIDATION_FAILED', engineNotConfiguredMessage(engine));
    }
    if (!jobs.connected()) throw unavailable();
    const policy = await quota.policy(owner);
    const lane = laneFor(policy);
    const outcome = await uploads.reextract(owner, id, { engine: engine ?? null, lane }, policy);
    if ('refused' in outcome) {
      switch (outcome.refused) {
        case 'not-found':
          throw notFound('Receipt not found');
        case 'active':
          throw new HttpError(409, 'CONFLICT', 'This receipt is being extracted right now.');
        case 'original-deleted':
          throw new HttpError(409, 'CONFLICT', 'The original file was deleted after 90 days, so this receipt cannot be extracted again.');
        case 'quota-exceeded':
          throw new HttpError(429, 'QUOTA_EXCEEDED', quotaExceededMessage(policy.signedIn));
      }
    }
    try {
      await jobs.reenqueue({ uploadId: id, lane });
    } catch (err) {
      log.warn({ err, uploadId: id }, 're-extraction could not be queued; upload restored');
      await uploads.restore(outcome.previous);
      throw unavailable();
    }
    void this.announcer.announce(owner, ownerRoom(outcome.queued));
    return outcome.queued;
  }

  /**
   * Deletes an upload and everything extracted from it (an active one is cancelled first, its
   * unit returned). The original file goes too.
   */
  async remove(owner: Owner, id: string): Promise<void> {
    const { uploads, files, log } = this.deps;
    const current = await this.get(owner, id);
    // A file still being stored would land after its deletion, a file without a row.
    await this.stored(id);
    if (!isFinal(current.status)) {
      await this.cancel(owner, id).catch((err: unknown) => {
        // Ended meanwhile (409): nothing left to stop. Anything else is logged; the row goes
        // either way, and a job still running finds it gone at its next step.
        if (!(err instanceof HttpError && err.status === 409)) log.warn({ err, uploadId: id }, 'cancel before delete failed');
      });
    }
    if (!(await uploads.remove(owner, id))) throw notFound('Upload not found');
    await files.delete(id);
  }

  /** Stops every queued or processing upload of the owner (account deletion): jobs leave the queue or are aborted. */
  async stopAll(owner: Owner): Promise<void> {
    const { uploads, jobs } = this.deps;
    for (const id of await uploads.cancelAll(owner)) {
      // Its file lands before the originals are deleted, and its job, if queued meanwhile, is taken out.
      await this.stored(id);
      await jobs.cancel(id);
    }
  }

  /** Deletes stored originals whose rows are already gone. */
  async deleteOriginals(ids: readonly string[]): Promise<void> {
    await this.deps.files.deleteMany(ids);
  }

  /** The owner keeps an upload flagged as a possible duplicate: the flag goes and is not set again. */
  async keep(owner: Owner, id: string): Promise<UploadView> {
    if (!(await this.deps.duplicates.keep(owner, id))) throw notFound('Upload not found');
    return this.get(owner, id);
  }

  private notPublished(err: unknown, uploadId: string): void {
    this.deps.log.warn({ err: (err as Error).message, uploadId }, 'live event not published; clients see it on their next sync');
  }
}
