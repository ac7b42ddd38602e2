import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { MAX_DOCUMENT_PAGES, MAX_UPLOAD_BYTES } from '@receipts/common';
import type { Config } from './config.js';

/** Asked for an original that is not stored (deleted after the retention period, or never written). */
export class StoredFileMissingError extends Error {
  override name = 'StoredFileMissingError';
  constructor(id: string) {
    super(`No stored original for upload ${id}`);
  }
}

/** The store cannot be used as configured (a bucket missing, keys refused, a store not answering). */
export class FileStoreUnusableError extends Error {
  override name = 'FileStoreUnusableError';
}

/**
 * The original uploads, keyed by upload id: written by the api, read by the worker that decodes
 * them (and by exports), deleted by retention and account deletion. Also the exports kept for
 * their Idempotency-Key, each under an id of its own, deleted with the key. Beside each original, the
 * pictures of its pages the worker drew for the review screen (at most MAX_DOCUMENT_PAGES); they
 * are deleted with it. Either a directory (one disk,
 * or a volume every process mounts) or an S3-compatible bucket, so api and workers can run on
 * hosts that share nothing but PostgreSQL, Redis and the bucket.
 */
export interface FileStore {
  /** Where the originals are, for the start-up log line. */
  readonly location: string;
  /** Answers when the store is usable: the bucket exists and the credentials reach it. */
  check(): Promise<void>;
  /** Stores a whole upload (the api has it in memory, at most MAX_UPLOAD_BYTES); readers never see half of it. */
  put(id: string, bytes: Buffer): Promise<void>;
  /** Stores a file of the local disk as it is, streamed (a kept export may be far larger than an upload); readers never see half of it. */
  putFile(id: string, source: string): Promise<void>;
  /** The whole original, for the worker that decodes it from memory; StoredFileMissingError when it is gone. */
  read(id: string): Promise<Buffer>;
  /**
   * The original as a stream, to copy it on (an export) without holding it whole;
   * StoredFileMissingError when it is gone. Read it to the end or destroy it: it holds a file or a connection.
   */
  readStream(id: string): Promise<Readable>;
  /** Replaces the page pictures of an upload (JPEG, page 0 first; at most MAX_DOCUMENT_PAGES). */
  putPages(id: string, pages: readonly Buffer[]): Promise<void>;
  /** How many page pictures are stored (0 for uploads read before they were kept, or deleted). */
  pageCount(id: string): Promise<number>;
  /** Page `n`'s picture; null when there is none. */
  readPage(id: string, n: number): Promise<Buffer | null>;
  /**
   * Deletes an original and its page pictures, the pictures first: while the original is there, a
   * sweep that stopped half-way still sees the upload as stored. One already gone is fine (a sweep
   * may repeat after a crash).
   */
  delete(id: string): Promise<void>;
  /** Deletes many originals and their pictures at once (retention, account deletion), as few requests as the store allows. */
  deleteMany(ids: readonly string[]): Promise<void>;
}

const assertUploadId = (id: string) => {
  if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error(`Not an upload id: ${id}`);
};

const assertPages = (id: string, pages: readonly Buffer[]) => {
  if (pages.length > MAX_DOCUMENT_PAGES) throw new Error(`Upload ${id}: ${pages.length} page pictures, more than ${MAX_DOCUMENT_PAGES}`);
};

const isPageNumber = (n: number) => Number.isInteger(n) && n >= 0 && n < MAX_DOCUMENT_PAGES;

/** Reads a stream whole, refusing more than an upload may hold (the store holds nothing else). */
async function collect(stream: Readable, id: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_UPLOAD_BYTES) {
      stream.destroy();
      throw new Error(`The stored original of upload ${id} is larger than an upload may be`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Originals in a directory: `<root>/<first two characters of the id>/<id>`, its page pictures in `<id>.pages/<n>.jpg`. */
export class LocalFileStore implements FileStore {
  constructor(private readonly root: string) {}

  get location(): string {
    return this.root;
  }

  private pathOf(id: string): string {
    assertUploadId(id);
    return path.join(this.root, id.slice(0, 2), id);
  }

  private pagesOf(id: string): string {
    return `${this.pathOf(id)}.pages`;
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  async put(id: string, bytes: Buffer): Promise<void> {
    const target = this.pathOf(id);
    // Write then rename, so a reader never sees half a file. The folder (one of 256) is made
    // when a write finds it missing, not asked for on every upload.
    const partial = `${target}.partial`;
    await writeFile(partial, bytes).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(partial, bytes);
    });
    await rename(partial, target);
  }

  async putFile(id: string, source: string): Promise<void> {
    const target = this.pathOf(id);
    const partial = `${target}.partial`;
    await copyFile(source, partial).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(source, partial);
    });
    await rename(partial, target);
  }

  async read(id: string): Promise<Buffer> {
    return collect(await this.readStream(id), id);
  }

  async readStream(id: string): Promise<Readable> {
    // Opened here, so a missing file is this call's error rather than the stream's first event.
    const handle = await open(this.pathOf(id), 'r').catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' ? new StoredFileMissingError(id) : err;
    });
    return handle.createReadStream();
  }

  /** Written aside and renamed into place, so a reader sees the old set or the new one, never a mix. */
  async putPages(id: string, pages: readonly Buffer[]): Promise<void> {
    assertPages(id, pages);
    const target = this.pagesOf(id);
    const partial = `${target}.partial-${randomUUID()}`;
    await mkdir(partial, { recursive: true });
    try {
      for (const [n, bytes] of pages.entries()) await writeFile(path.join(partial, `${n}.jpg`), bytes);
      await rm(target, { recursive: true, force: true });
      await rename(partial, target);
    } catch (err) {
      await rm(partial, { recursive: true, force: true });
      throw err;
    }
  }

  async pageCount(id: string): Promise<number> {
    const names = await readdir(this.pagesOf(id)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    return names.filter((n) => /^\d+\.jpg$/.test(n)).length;
  }

  async readPage(id: string, n: number): Promise<Buffer | null> {
    if (!isPageNumber(n)) return null;
    return readFile(path.join(this.pagesOf(id), `${n}.jpg`)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
  }

  async delete(id: string): Promise<void> {
    await rm(this.pagesOf(id), { recursive: true, force: true });
    await rm(this.pathOf(id), { force: true });
    // Half a write a crashed process left behind.
    await rm(`${this.pathOf(id)}.partial`, { force: true });
  }

  async deleteMany(ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.delete(id);
  }
}

export interface S3FileStoreOptions {
  bucket: string;
  /** Key prefix inside the bucket ("originals/"). */
  prefix: string;
  /** The S3 client's settings: region, endpoint, credentials, path style. */
  client: S3ClientConfig;
}

/** DeleteObjects takes at most this many keys a request. */
const DELETE_BATCH = 1000;

/**
 * Originals as objects of an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Ceph…):
 * `<prefix><id>`, its page pictures `<prefix><id>.pages/<n>.jpg`. A PUT is atomic (an object is
 * there whole or not at all); reads stream the body.
 */
export class S3FileStore implements FileStore {
  private readonly s3: S3Client;

  constructor(private readonly options: S3FileStoreOptions) {
    this.s3 = new S3Client(options.client);
  }

  get location(): string {
    return `s3://${this.options.bucket}/${this.options.prefix}`;
  }

  private keyOf(id: string): string {
    assertUploadId(id);
    return `${this.options.prefix}${id}`;
  }

  private pagePrefixOf(id: string): string {
    return `${this.keyOf(id)}.pages/`;
  }

  /** Every key a picture of these uploads may have: deleting a key that is not there is no error, so no listing is needed. */
  private pageKeysOf(ids: readonly string[]): string[] {
    return ids.flatMap((id) => Array.from({ length: MAX_DOCUMENT_PAGES }, (_, n) => `${this.pagePrefixOf(id)}${n}.jpg`));
  }

  private async deleteKeys(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const { Errors } = await this.s3.send(
        new DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      // A key that is not there is no error to S3; anything listed here was not deleted.
      if (Errors?.length) throw new Error(`The S3 store did not delete ${Errors.length} object(s): ${Errors[0]!.Key} ${Errors[0]!.Code} ${Errors[0]!.Message ?? ''}`.trim());
    }
  }

  async check(): Promise<void> {
    await this.s3.send(new HeadBucketCommand({ Bucket: this.options.bucket })).catch((err: Error & { $metadata?: { httpStatusCode?: number } }) => {
      const status = err.$metadata?.httpStatusCode;
      const why = status === 404 ? 'no such bucket' : status === 403 ? 'access denied (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)' : err.message || err.name;
      throw new FileStoreUnusableError(`The S3 bucket ${this.options.bucket} is not usable: ${why}`, { cause: err });
    });
  }

  async put(id: string, bytes: Buffer): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(id), Body: bytes, ContentLength: bytes.length }));
  }

  async putFile(id: string, source: string): Promise<void> {
    // A single PUT of a stream needs its length up front; the file on disk knows it.
    const { size } = await stat(source);
    await this.s3.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(id), Body: createReadStream(source), ContentLength: size }));
  }

  async read(id: string): Promise<Buffer> {
    return collect(await this.readStream(id), id);
  }

  async readStream(id: string): Promise<Readable> {
    const object = await this.s3.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(id) })).catch((err: Error) => {
      throw err.name === 'NoSuchKey' ? new StoredFileMissingError(id) : err;
    });
    // In Node the SDK's body is the HTTP response, a Readable.
    return object.Body as Readable;
  }

  /**
   * Objects cannot be swapped as a set: the new pictures are written over the old, then any page
   * the new set does not have is deleted (a reader in between may see old and new pages mixed).
   */
  async putPages(id: string, pages: readonly Buffer[]): Promise<void> {
    assertPages(id, pages);
    for (const [n, bytes] of pages.entries()) {
      await this.s3.send(
        new PutObjectCommand({ Bucket: this.options.bucket, Key: `${this.pagePrefixOf(id)}${n}.jpg`, Body: bytes, ContentLength: bytes.length, ContentType: 'image/jpeg' }),
      );
    }
    await this.deleteKeys(this.pageKeysOf([id]).slice(pages.length));
  }

  async pageCount(id: string): Promise<number> {
    const { Contents } = await this.s3.send(new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: this.pagePrefixOf(id), MaxKeys: 100 }));
    return (Contents ?? []).filter((o) => /\/\d+\.jpg$/.test(o.Key ?? '')).length;
  }

  async readPage(id: string, n: number): Promise<Buffer | null> {
    if (!isPageNumber(n)) return null;
    const object = await this.s3
      .send(new GetObjectCommand({ Bucket: this.options.bucket, Key: `${this.pagePrefixOf(id)}${n}.jpg` }))
      .catch((err: Error) => {
        if (err.name === 'NoSuchKey') return null;
        throw err;
      });
    return object ? collect(object.Body as Readable, id) : null;
  }

  async delete(id: string): Promise<void> {
    await this.deleteKeys(this.pageKeysOf([id]));
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(id) }));
  }

  async deleteMany(ids: readonly string[]): Promise<void> {
    // The pictures of the whole batch first, then the originals (see delete).
    await this.deleteKeys(this.pageKeysOf(ids));
    await this.deleteKeys(ids.map((id) => this.keyOf(id)));
  }
}

/** The store STORAGE names: a directory (the embedded default) or an S3-compatible bucket. */
export function createFileStore(config: Config): FileStore {
  if (config.STORAGE === 'local') return new LocalFileStore(config.storageDir);
  return new S3FileStore({
    bucket: config.S3_BUCKET!,
    prefix: config.S3_PREFIX,
    client: {
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      // Named keys, or the SDK's own chain (environment, instance or task role, profile files).
      credentials: config.S3_ACCESS_KEY_ID ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY! } : undefined,
      // Checksums only where the API requires them: not every S3-compatible server knows the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // Bounded: a store that does not answer fails the request (and is retried by the SDK) instead of hanging it.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
      maxAttempts: 3,
    },
  });
}
