import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

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

  async delete(id: string): Promise<void> {
    await rm(this.pathOf(id), { force: true });
  }
}
