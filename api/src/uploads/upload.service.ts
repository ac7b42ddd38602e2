import { createHash, randomUUID } from 'node:crypto';
import { engineNotConfiguredMessage, isFinal, laneFor, quotaExceededMessage, sniffMimeType, USER_MESSAGES, type EngineName, type UploadView } from '@receipts/common';
import {
  metrics,
  notifyQuota,
  ownerRoom,
  QuotaAnnouncer,
  type FileStore,
  type Logger,
  type QuotaService,
  type ReceiptJobs,
  type UploadEventBus,
  type UploadRepository,
  type UploadRow,
} from '@receipts/infra';
import { HttpError, notFound } from '../http-error.js';
import type { Owner } from '../session.js';

export interface UploadServiceDeps {
  uploads: UploadRepository;
  jobs: ReceiptJobs;
  quota: QuotaService;
  files: FileStore;
  bus: UploadEventBus;
  /** Engines this deployment can run (Document AI and the vision model only when configured); the local one when not given. */
  engines?: readonly EngineName[];
  log: Logger;
}

export interface IncomingFile {
  originalname: string;
  buffer: Buffer;
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

  constructor(private readonly deps: UploadServiceDeps) {
    this.announcer = new QuotaAnnouncer(deps.quota, deps.bus, (err) =>
      deps.log.warn({ err: (err as Error).message }, 'quota figures not published; clients see them on their next sync'),
    );
  }

  /**
   * Checks the file, takes a quota unit, stores the file, records the upload and enqueues its
   * job. The unit and the row are written in one transaction while the file is written (both
   * must succeed before the job is queued); anything failing after that withdraws the upload and
   * returns the unit.
   */
  async create(owner: Owner, file: IncomingFile, currencyCode?: string, context: { requestId?: string } = {}): Promise<UploadRow> {
    const { uploads, files, jobs, quota, log } = this.deps;
    if (file.buffer.length === 0) throw new HttpError(400, 'FILE_EMPTY', USER_MESSAGES.fileEmpty);
    const mimeType = sniffMimeType(file.buffer);
    if (!mimeType) {
      throw new HttpError(415, 'UNSUPPORTED_FILE_TYPE', USER_MESSAGES.unsupportedFile);
    }
    // Refuse before writing anything when the queue cannot take the job.
    if (!jobs.connected()) throw unavailable();
    const policy = await quota.policy(owner);
    const lane = laneFor(policy);
    const id = randomUUID();
    const [stored, created] = await Promise.allSettled([
      files.put(id, file.buffer),
      uploads.create(
        {
          id,
          owner,
          filename: file.originalname || 'unknown',
          mimeType,
          size: file.buffer.length,
          sha256: createHash('sha256').update(file.buffer).digest('hex'),
          currencyCode: currencyCode ?? null,
          lane,
        },
        policy,
      ),
    ]);
    if (stored.status === 'rejected' || created.status === 'rejected' || !created.value) {
      // The file may be half-written or written for nothing; a row written beside a failed file
      // goes with its unit.
      if (created.status === 'fulfilled' && created.value) await uploads.withdraw(id);
      await files.delete(id);
      if (stored.status === 'rejected') throw stored.reason;
      if (created.status === 'rejected') throw created.reason;
      throw new HttpError(429, 'QUOTA_EXCEEDED', quotaExceededMessage(policy.signedIn));
    }
    const row = created.value;
    try {
      await jobs.enqueue({ uploadId: id, lane, requestId: context.requestId });
    } catch (err) {
      log.warn({ err, uploadId: id, requestId: context.requestId }, 'enqueue failed; upload withdrawn');
      if (await uploads.withdraw(id)) await files.delete(id);
      throw unavailable();
    }
    metrics.uploadSize.observe({ mime_type: mimeType }, file.buffer.length);
    log.info({ uploadId: id, requestId: context.requestId, lane, mimeType, size: file.buffer.length }, 'upload queued');
    // Not awaited: the 202 does not wait for the badge's figures (QuotaAnnouncer reports its own failures).
    void this.announcer.announce(owner, ownerRoom(row));
    return row;
  }

  async list(owner: Owner): Promise<UploadView[]> {
    return this.deps.uploads.list(owner);
  }

  /** The caller's upload; someone else's is reported as not found, never as forbidden. */
  async get(owner: Owner, id: string): Promise<UploadView> {
    const view = await this.deps.uploads.view(owner, id);
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
    for (const id of await uploads.cancelAll(owner)) await jobs.cancel(id);
  }

  /** Deletes stored originals whose rows are already gone. */
  async deleteOriginals(ids: readonly string[]): Promise<void> {
    await this.deps.files.deleteMany(ids);
  }

  /** The owner keeps an upload flagged as a possible duplicate: the flag goes and is not set again. */
  async keep(owner: Owner, id: string): Promise<UploadView> {
    if (!(await this.deps.uploads.keep(owner, id))) throw notFound('Upload not found');
    return this.get(owner, id);
  }

  private notPublished(err: unknown, uploadId: string): void {
    this.deps.log.warn({ err: (err as Error).message, uploadId }, 'live event not published; clients see it on their next sync');
  }
}
