import { PassThrough, type Readable, type Writable } from 'node:stream';
import { PACK_MISSING_NOTE, PACK_ORIGINALS_DIR, originalFileName, uniqueNames, type ExportSource } from '@receipts/common';
import type { Logger, OriginalRow } from '@receipts/infra';
import archiver from 'archiver';
import type { OriginalLink } from './workbook.writer.js';

/** A file of the pack written as it is zipped: the workbook, the preset's file. */
export interface GeneratedEntry {
  name: string;
  /** Compressed already (the workbook is a zip itself): stored as it is. */
  store: boolean;
  write(out: Writable, linkOf: OriginalLink): Promise<void>;
}

export interface Pack {
  /** Every receipt of the export in upload order, a page at a time. */
  originals: AsyncIterable<OriginalRow[]>;
  /** The stored original as a stream; null when it is not stored. */
  openOriginal(uploadId: string): Promise<Readable | null>;
  entries: GeneratedEntry[];
  /** Small files written whole (the Firefly importer's configuration). */
  texts: Array<{ name: string; text: string }>;
}

/** Originals the note lists one by one; past this it counts the rest (the workbook shows every receipt, unlinked). */
const MISSING_LISTED_MAX = 10_000;

/** One line of text, for a note: whatever the user named the file. */
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/**
 * Resolves once the archive has written the entry it is working on, rejects when it fails, its
 * source fails or the client goes away: the pack then breaks off instead of looking whole.
 */
function entryWritten(archive: archiver.Archiver, source: Readable, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      archive.off('entry', done);
      archive.off('error', fail);
      source.off('error', fail);
      signal.removeEventListener('abort', gone);
    };
    const done = () => {
      cleanup();
      resolve();
    };
    const fail = (err: Error) => {
      cleanup();
      source.destroy();
      reject(err);
    };
    const gone = () => fail(new Error('client went away'));
    if (signal.aborted) return gone();
    archive.once('entry', done);
    archive.once('error', fail);
    source.once('error', fail);
    signal.addEventListener('abort', gone, { once: true });
  });
}

/**
 * Streams the export pack, a zip: every original under `originals/` as
 * `YYYY-MM-DD_merchant_total.ext`, then the workbook (its file names linking to them), the
 * preset's file and any small texts, and last a note of the originals that could not be
 * included. One entry at a time, each original read from the store as a stream, so memory
 * holds a chunk of one file and the name given to each receipt, whatever the selection's size.
 */
export async function writePack(out: Writable, pack: Pack, log: Logger): Promise<void> {
  // Originals are JPEG, PNG, PDF…: compressed already, stored as they are; text is deflated.
  const archive = archiver('zip', { zlib: { level: 6 } });
  const control = new AbortController();
  const onClose = () => {
    if (!out.writableFinished) control.abort();
  };
  out.once('close', onClose);
  archive.on('warning', (err) => log.warn({ err }, 'export pack warning'));
  // Failures reach the entry being written (entryWritten); this keeps one from going unheard in between.
  archive.on('error', (err) => log.warn({ err: err.message }, 'export pack failed'));
  archive.pipe(out);
  control.signal.addEventListener('abort', () => archive.abort(), { once: true });

  try {
    const nameOf = uniqueNames();
    const links = new Map<string, string>();
    const missing: string[] = [];
    let missingCount = 0;
    const noteMissing = (line: string) => {
      missingCount += 1;
      if (missing.length < MISSING_LISTED_MAX) missing.push(line);
    };
    for await (const page of pack.originals) {
      for (const row of page) {
        const name = nameOf(originalFileName(row));
        const described = `${oneLine(row.filename)} (${row.date ?? 'no date'}, ${oneLine(row.merchantName ?? 'unknown merchant')}) would be ${PACK_ORIGINALS_DIR}/${name}`;
        if (row.originalDeletedAt) {
          noteMissing(`${described}: deleted on ${row.originalDeletedAt.toISOString().slice(0, 10)}, at the end of the retention period.`);
          continue;
        }
        const stream = await pack.openOriginal(row.uploadId);
        if (!stream) {
          noteMissing(`${described}: not found in storage.`);
          continue;
        }
        const written = entryWritten(archive, stream, control.signal);
        archive.append(stream, { name: `${PACK_ORIGINALS_DIR}/${name}`, store: true });
        await written;
        links.set(row.receiptId, `${PACK_ORIGINALS_DIR}/${name}`);
      }
    }

    const linkOf: OriginalLink = (source: ExportSource) => links.get(source.receipt.id);
    for (const entry of pack.entries) {
      const stream = new PassThrough();
      const written = entryWritten(archive, stream, control.signal);
      archive.append(stream, { name: entry.name, store: entry.store });
      await Promise.all([
        entry.write(stream, linkOf).catch((err: unknown) => {
          stream.destroy(err as Error);
          throw err;
        }),
        written,
      ]);
    }

    const texts = [...pack.texts];
    if (missingCount > 0) {
      const more = missingCount - missing.length;
      texts.push({
        name: PACK_MISSING_NOTE,
        text:
          `${missingCount} original${missingCount === 1 ? ' is' : 's are'} not in this pack (their receipts are in the workbook):\r\n\r\n${missing.join('\r\n')}\r\n` +
          (more > 0 ? `… and ${more} more.\r\n` : ''),
      });
    }
    for (const { name, text } of texts) {
      const stream = new PassThrough();
      const written = entryWritten(archive, stream, control.signal);
      archive.append(stream, { name });
      stream.end(text);
      await written;
    }

    const finished = new Promise<void>((resolve, reject) => {
      out.once('finish', resolve);
      out.once('error', reject);
      control.signal.addEventListener('abort', () => reject(new Error('client went away')), { once: true });
    });
    await archive.finalize();
    await finished;
  } catch (err) {
    archive.abort();
    throw err;
  } finally {
    out.off('close', onClose);
  }
}
