import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectReceiptFiles, isReceiptFileName, MissingPathError } from './receipt-files.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'receipt-files-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const touch = async (...names: string[]) => {
  for (const name of names) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), name);
  }
};
const relative = (files: string[]) => files.map((f) => path.relative(root, f));

describe('isReceiptFileName', () => {
  it.each(['a.jpg', 'A.JPEG', 'scan.png', 'x.webp', 'IMG_1.HEIC', 'b.heif', 'c.tif', 'd.TIFF', 'e.gif', 'invoice.pdf'])('takes %s', (name) => {
    expect(isReceiptFileName(name)).toBe(true);
  });
  it.each(['notes.txt', 'photo.jpg.txt', 'archive.zip', 'jpg', 'Makefile', '.pdf'])('passes over %s', (name) => {
    expect(isReceiptFileName(name)).toBe(false);
  });
});

describe('collectReceiptFiles', () => {
  it('walks folders and their sub-folders for receipt files, in name order', async () => {
    await touch('b.jpg', 'a.pdf', 'notes.txt', 'trip/2.png', 'trip/1.HEIC', 'trip/deeper/z.tiff', 'empty/readme.md');
    expect(relative(await collectReceiptFiles([root]))).toEqual(['a.pdf', 'b.jpg', path.join('trip', '1.HEIC'), path.join('trip', '2.png'), path.join('trip', 'deeper', 'z.tiff')]);
  });

  it('skips hidden files and folders, and symbolic links', async () => {
    await touch('.hidden.jpg', '.cache/a.jpg', 'real.jpg');
    await symlink(path.join(root, 'real.jpg'), path.join(root, 'link.jpg'));
    expect(relative(await collectReceiptFiles([root]))).toEqual(['real.jpg']);
  });

  it('sends a file named on the command line whatever its extension', async () => {
    await touch('scan.bin');
    expect(relative(await collectReceiptFiles([path.join(root, 'scan.bin')]))).toEqual(['scan.bin']);
  });

  it('lists a file once when two paths name it', async () => {
    await touch('r/a.jpg', 'r/b.jpg');
    expect(relative(await collectReceiptFiles([path.join(root, 'r', 'a.jpg'), path.join(root, 'r')]))).toEqual([path.join('r', 'a.jpg'), path.join('r', 'b.jpg')]);
  });

  it('says which path is missing', async () => {
    const missing = path.join(root, 'nope');
    await expect(collectReceiptFiles([missing])).rejects.toThrow(new MissingPathError(`No such file or folder: ${missing}`));
  });
});
