import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** Original uploads on disk (a shared volume when processes run on several hosts), keyed by upload id. */
export class FileStore {
  constructor(private readonly root: string) {}

  private pathOf(id: string): string {
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error(`Not an upload id: ${id}`);
    return path.join(this.root, id.slice(0, 2), id);
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

  /**
   * The stored file as a stream, read a chunk at a time (never whole in memory); null when no
   * file is stored under the id. Opened before it is returned, so a missing file is known
   * before anything is written on its behalf.
   */
  async openRead(id: string): Promise<Readable | null> {
    try {
      const handle = await open(this.pathOf(id), 'r');
      return handle.createReadStream();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(id: string): Promise<void> {
    await rm(this.pathOf(id), { force: true });
  }
}
