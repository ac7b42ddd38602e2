import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The file names a folder is searched for: the kinds the api takes (JPEG, PNG, WebP, HEIC/HEIF,
 * TIFF, GIF, PDF). The api sniffs the bytes whatever the name says; a file named on the command
 * line is sent whatever its extension, and the api's answer says whether it was a receipt.
 */
export const RECEIPT_EXTENSIONS: readonly string[] = ['.jpg', '.jpeg', '.png', '.webp', '.heic', '.heif', '.tif', '.tiff', '.gif', '.pdf'];

export const isReceiptFileName = (name: string) => RECEIPT_EXTENSIONS.includes(path.extname(name).toLowerCase());

/** A path given on the command line that is neither a file nor a folder. */
export class MissingPathError extends Error {}

/**
 * The files to upload for `paths`: a file as given, a folder walked (sub-folders too, hidden
 * entries and symbolic links skipped) for files of a receipt's extension, in name order. Each file
 * once, whichever paths named it.
 */
export async function collectReceiptFiles(paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const given of paths) {
    const info = await stat(given).catch(() => null);
    if (!info) throw new MissingPathError(`No such file or folder: ${given}`);
    if (info.isDirectory()) found.push(...(await walk(given)));
    else found.push(given);
  }
  const seen = new Set<string>();
  return found.filter((file) => {
    const key = path.resolve(file);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function walk(folder: string): Promise<string[]> {
  const entries = (await readdir(folder, { withFileTypes: true })).filter((e) => !e.name.startsWith('.'));
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) files.push(...(await walk(full)));
    else if (entry.isFile() && isReceiptFileName(entry.name)) files.push(full);
  }
  return files;
}
