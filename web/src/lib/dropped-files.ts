/**
 * A folder dropped or chosen whole: the receipts in it and in its folders, found by their name's
 * ending (a folder also holds notes, spreadsheets and the system's hidden files, which are left
 * where they are rather than refused one by one).
 */

/** The endings of the files the service reads (file-type.ts sniffs the bytes again on arrival). */
const RECEIPT_NAME = /\.(jpe?g|png|webp|heic|heif|tiff?|gif|pdf)$/i;

/** The most files one folder gives: past that, a drop is more likely a photo library than receipts. */
export const FOLDER_FILES_MAX = 500;

/** Whether a file found in a folder is one to send: a receipt's ending, not a hidden file. */
export const isReceiptFile = (name: string) => !name.startsWith('.') && RECEIPT_NAME.test(name);

/** The part of the File System entry API a drop gives (webkitGetAsEntry). */
export interface DroppedEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  file?(success: (file: File) => void, failure?: (err: unknown) => void): void;
  createReader?(): { readEntries(success: (entries: DroppedEntry[]) => void, failure?: (err: unknown) => void): void };
}

/** Every file under the entries, folders walked depth first; a folder's reader gives its entries in batches until an empty one. */
export async function filesOfEntries(entries: readonly DroppedEntry[], max = FOLDER_FILES_MAX): Promise<{ files: File[]; skipped: number }> {
  const files: File[] = [];
  let skipped = 0;
  const walk = async (entry: DroppedEntry, inFolder: boolean): Promise<void> => {
    if (files.length >= max) return;
    if (entry.isFile && entry.file) {
      const file = await new Promise<File>((resolve, reject) => entry.file!(resolve, reject));
      // A file dropped by itself is sent whatever it is (the server says why it refuses one); in a folder, only receipts.
      if (!inFolder || isReceiptFile(file.name)) files.push(file);
      else skipped += 1;
      return;
    }
    if (!entry.isDirectory || !entry.createReader) return;
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise<DroppedEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0) return;
      for (const child of batch) await walk(child, true);
    }
  };
  for (const entry of entries) await walk(entry, false);
  return { files: files.slice(0, max), skipped };
}

/** The files of a drop: folders opened where the browser gives entries, the plain file list otherwise. */
export async function droppedFiles(transfer: DataTransfer): Promise<{ files: File[]; skipped: number }> {
  const entries = Array.from(transfer.items ?? [])
    .map((item) => (item.kind === 'file' ? (item.webkitGetAsEntry?.() as DroppedEntry | null) : null))
    .filter((e): e is DroppedEntry => e !== null && e !== undefined);
  if (entries.length === 0 || !entries.some((e) => e.isDirectory)) return { files: Array.from(transfer.files), skipped: 0 };
  return filesOfEntries(entries);
}

/** The files of a folder chosen with the folder picker (webkitdirectory): its receipts only. */
export function chosenFolderFiles(list: readonly File[], max = FOLDER_FILES_MAX): { files: File[]; skipped: number } {
  const files = list.filter((f) => isReceiptFile(f.name));
  return { files: files.slice(0, max), skipped: list.length - files.length };
}
