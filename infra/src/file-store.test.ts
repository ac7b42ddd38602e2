import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { MAX_UPLOAD_BYTES } from '@receipts/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3StandIn, type S3StandIn } from '../../tests/support/s3-stand-in.js';
import { parseConfig } from './config.js';
import { createFileStore, FileStoreUnusableError, StoredFileMissingError, type FileStore } from './file-store.js';

let s3: S3StandIn;
let dir: string;
beforeAll(async () => {
  s3 = await startS3StandIn();
  dir = await mkdtemp(path.join(os.tmpdir(), 'file-store-'));
});
afterAll(async () => {
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

async function drain(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const stores: Array<[string, () => FileStore]> = [
  ['a directory', () => createFileStore(parseConfig({ STORAGE_DIR: dir }))],
  ['an S3 bucket (the AWS SDK against s3rver)', () => createFileStore(parseConfig(s3.env))],
];

describe.each(stores)('originals in %s', (_where, make) => {
  it('gives back what was put, whole or as a stream', async () => {
    const files = make();
    await files.check();
    const id = randomUUID();
    const bytes = randomBytes(300_000);
    await files.put(id, bytes);
    expect((await files.read(id)).equals(bytes)).toBe(true);
    expect((await drain(await files.readStream(id))).equals(bytes)).toBe(true);
  });

  it('stores a file from disk as it is, larger than an upload may be, and streams it back', async () => {
    const files = make();
    const id = randomUUID();
    const bytes = randomBytes(MAX_UPLOAD_BYTES + 1);
    const source = path.join(dir, `${id}.export`);
    await writeFile(source, bytes);
    await files.putFile(id, source);
    expect((await drain(await files.readStream(id))).equals(bytes)).toBe(true);
    await files.delete(id);
    await expect(files.readStream(id)).rejects.toBeInstanceOf(StoredFileMissingError);
  });

  it('says plainly when an original is not there, and deleting it twice is fine', async () => {
    const files = make();
    const id = randomUUID();
    await expect(files.read(id)).rejects.toBeInstanceOf(StoredFileMissingError);
    await expect(files.readStream(id)).rejects.toBeInstanceOf(StoredFileMissingError);
    await files.put(id, Buffer.from('receipt'));
    await files.delete(id);
    await files.delete(id);
    await expect(files.read(id)).rejects.toBeInstanceOf(StoredFileMissingError);
  });

  it('deletes many at once, more than one request holds, and ids long gone among them', async () => {
    const files = make();
    const kept = randomUUID();
    const stored = Array.from({ length: 3 }, () => randomUUID());
    for (const id of [kept, ...stored]) await files.put(id, Buffer.from(id));
    const neverStored = Array.from({ length: 1100 }, () => randomUUID());
    await files.deleteMany([...neverStored, ...stored]);
    for (const id of stored) await expect(files.read(id)).rejects.toBeInstanceOf(StoredFileMissingError);
    expect((await files.read(kept)).toString()).toBe(kept);
  });

  it('keeps page pictures beside an original, replaces them as a set and deletes them with it', async () => {
    const files = make();
    const [one, two] = [randomUUID(), randomUUID()];
    for (const id of [one, two]) {
      await files.put(id, Buffer.from(id));
      await files.putPages(id, [Buffer.from(`${id} page 1`), Buffer.from(`${id} page 2`), Buffer.from(`${id} page 3`)]);
    }
    expect(await files.pageCount(one)).toBe(3);
    expect((await files.readPage(one, 1))?.toString()).toBe(`${one} page 2`);
    expect(await files.readPage(one, 3)).toBeNull();
    expect(await files.readPage(one, -1)).toBeNull();

    await files.putPages(one, [Buffer.from('new page 1')]);
    expect(await files.pageCount(one)).toBe(1);
    expect((await files.readPage(one, 0))?.toString()).toBe('new page 1');
    expect(await files.readPage(one, 1)).toBeNull();
    await expect(files.putPages(one, Array.from({ length: 6 }, () => Buffer.from('page')))).rejects.toThrow('more than 5');

    await files.delete(one);
    expect(await files.pageCount(one)).toBe(0);
    expect(await files.readPage(one, 0)).toBeNull();
    await files.deleteMany([two]);
    expect(await files.pageCount(two)).toBe(0);
    await expect(files.read(two)).rejects.toBeInstanceOf(StoredFileMissingError);
  });

  it('refuses a key that is not an upload id', async () => {
    await expect(make().put('../../etc/passwd', Buffer.from('x'))).rejects.toThrow('Not an upload id');
  });
});

describe('a directory', () => {
  it('deletes half a write a crashed process left beside an original', async () => {
    const files = createFileStore(parseConfig({ STORAGE_DIR: dir }));
    const id = randomUUID();
    const partial = path.join(dir, id.slice(0, 2), `${id}.partial`);
    await mkdir(path.dirname(partial), { recursive: true });
    await writeFile(partial, Buffer.from('half a rece'));
    await files.delete(id);
    expect(existsSync(partial)).toBe(false);
  });
});

describe('an S3 bucket', () => {
  it('is where the keys say, under the prefix', async () => {
    const id = randomUUID();
    await createFileStore(parseConfig(s3.env)).put(id, Buffer.from('receipt'));
    expect(await s3.keys()).toContain(`originals/${id}`);
  });

  it('that is missing or refuses the keys stops the process at start-up with the reason', async () => {
    await expect(createFileStore(parseConfig({ ...s3.env, S3_BUCKET: 'no-such-bucket' })).check()).rejects.toThrow(
      new FileStoreUnusableError('The S3 bucket no-such-bucket is not usable: no such bucket'),
    );
    // s3rver knows one account (and does not check SigV4 signatures): an unknown key id is refused.
    await expect(createFileStore(parseConfig({ ...s3.env, S3_ACCESS_KEY_ID: 'NOBODY', S3_SECRET_ACCESS_KEY: 'wrong' })).check()).rejects.toThrow(/access denied/);
  });
});
