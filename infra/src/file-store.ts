import { randomUUID } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Original uploads on disk (a shared volume when processes run on several hosts), keyed by upload
 * id, and beside each the pictures of its pages the review screen shows. Both go when the
 * original is deleted.
 */
export class FileStore {
  constructor(private readonly root: string) {}

  private pathOf(id: string): string {
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error(`Not an upload id: ${id}`);
    return path.join(this.root, id.slice(0, 2), id);
  }

  private pagesOf(id: string): string {
    return `${this.pathOf(id)}.pages`;
  }

  async put(id: string, bytes: Buffer): Promise<void> {
    const target = this.pathOf(id);
    await mkdir(path.dirname(target), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const partial = `${target}.partial`;
    await writeFile(partial, bytes);
    await rename(partial, target);
  }

  read(id: string): Promise<Buffer> {
    return readFile(this.pathOf(id));
  }

  /** The original as a stream (for archives of many files: one open at a time, none held whole). */
  stream(id: string): ReadStream {
    return createReadStream(this.pathOf(id));
  }

  /**
   * Replaces the page pictures of an upload (JPEG, page 0 first). Written aside and renamed
   * into place, so a reader sees the old set or the new one, never a mix.
   */
  async putPages(id: string, pages: readonly Buffer[]): Promise<void> {
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

  /** How many page pictures are stored (0 for uploads read before they were kept, or deleted). */
  async pageCount(id: string): Promise<number> {
    const names = await readdir(this.pagesOf(id)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    return names.filter((n) => /^\d+\.jpg$/.test(n)).length;
  }

  /** Page `n`'s picture; null when there is none. */
  async readPage(id: string, n: number): Promise<Buffer | null> {
    if (!Number.isInteger(n) || n < 0) return null;
    return readFile(path.join(this.pagesOf(id), `${n}.jpg`)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
  }

  /** The pictures first, the original last: while the original is there, a sweep that stopped half-way still sees the upload as stored. */
  async delete(id: string): Promise<void> {
    await rm(this.pagesOf(id), { recursive: true, force: true });
    await rm(this.pathOf(id), { force: true });
  }
}
