import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { extractReceipt, sniffMimeType, validateReceipt } from '@receipts/common';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyPdf, encryptedPdf, scannedPdf, textPdf } from '../../../tests/support/pdf-fixtures.js';
import { receiptsDir } from '../../../tests/support/service-process.js';
import { createOcrEngine } from '../ocr/create-ocr-engine.js';
import { UnreadableFileError } from '../ocr/ocr-engine.js';
import { runPipeline } from '../receipt.pipeline.js';
import { decodeDocument, MAX_OCR_SIDE } from './decode-document.js';
import { MAX_PDF_PAGES } from './pdf.decoder.js';

const signal = () => new AbortController().signal;
const decode = (bytes: Buffer) => decodeDocument(bytes, sniffMimeType(bytes) ?? 'image/jpeg', signal());

/** A PNG whose header claims `width` × `height` pixels, with almost no data behind it. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1000))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('decodeDocument', () => {
  const engine = createOcrEngine({ engine: 'local', concurrency: 1 });
  afterAll(() => engine.close());

  it.each(['jpeg', 'png', 'webp'] as const)('reads %s as a grayscale page', async (format) => {
    const bytes = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#f0a040' } })[format]().toBuffer();
    const doc = await decode(bytes);
    expect(doc.pages).toHaveLength(1);
    const meta = await sharp(doc.pages[0]!.image).metadata();
    expect([meta.width, meta.height, meta.channels]).toEqual([300, 200, 1]);
  });

  it('honours EXIF orientation', async () => {
    const bytes = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const page = (await decode(bytes)).pages[0]!;
    expect([page.width, page.height]).toEqual([200, 300]);
  });

  it('scales very large scans down to what OCR needs', async () => {
    const bytes = await sharp({ create: { width: 6000, height: 2000, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const page = (await decode(bytes)).pages[0]!;
    expect(page.width).toBe(MAX_OCR_SIDE);
  });

  it('reads a PDF text layer without OCR, in reading order', async () => {
    const doc = await decode(textPdf([['HON HWA HARDWARE TRADING', 'Date: 21/09/2017', 'TOTAL 10.40']]));
    expect(doc.pages).toHaveLength(0);
    expect(doc.textLayer).toBe('HON HWA HARDWARE TRADING\nDate: 21/09/2017\nTOTAL 10.40');
  });

  it('rasterises a scanned PDF and reads it', async () => {
    const jpeg = await readFile(path.join(receiptsDir, 'X51005568881.jpg'));
    const meta = await sharp(jpeg).metadata();
    const result = await runPipeline({ bytes: scannedPdf(jpeg, meta.width!, meta.height!), mimeType: 'application/pdf' }, engine, async () => undefined, signal());
    expect(result.receipt.total).toBe(10.4);
  });

  it('reads only the first pages of a 300-page PDF', async () => {
    const pages = Array.from({ length: 300 }, (_, i) => [`Page ${i + 1} of the statement`]);
    const started = Date.now();
    const doc = await decode(textPdf(pages));
    expect(doc.textLayer!.split('\n\n')).toHaveLength(MAX_PDF_PAGES);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it.each<[string, () => Buffer | Promise<Buffer>, RegExp]>([
    ['a zero-byte file', () => Buffer.alloc(0), /damaged or incomplete/],
    ['a truncated JPEG', async () => (await readFile(path.join(receiptsDir, 'X51005568881.jpg'))).subarray(0, 3000), /damaged or incomplete/],
    ['a PNG claiming 50 000 × 50 000 pixels', () => pngClaiming(50_000, 50_000), /too large to process/],
    ['an encrypted PDF', () => encryptedPdf(), /password-protected/],
    ['a PDF with no pages', () => emptyPdf(), /no pages|damaged/],
    ['random bytes behind a PDF header', () => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256))]), /damaged or not a PDF/],
    ['a HEIC container with no image', () => Buffer.concat([Buffer.from('\0\0\0\x18ftypheic\0\0\0\0mif1heic'), Buffer.alloc(200)]), /no readable image/],
  ])('refuses %s with a clear message', async (_name, make, message) => {
    const bytes = await make();
    const mime = sniffMimeType(bytes) ?? 'image/jpeg';
    const error = await decodeDocument(bytes, mime, signal()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadableFileError);
    expect((error as Error).message).toMatch(message);
  });

  it('gives an honest empty receipt for a photo that is not a receipt, and the engine still works after all of the above', async () => {
    const noise = await sharp(Buffer.from(Array.from({ length: 400 * 300 * 3 }, (_, i) => (i * 2654435761) % 251)), {
      raw: { width: 400, height: 300, channels: 3 },
    })
      .jpeg()
      .toBuffer();
    const photo = await runPipeline({ bytes: noise, mimeType: 'image/jpeg' }, engine, async () => undefined, signal());
    expect(photo.receipt.total ?? null).toBeNull();
    expect(photo.valid).toBe(false);
    expect(validateReceipt(photo.receipt, new Date())).toContain('Missing all key fields (merchant, total, and date)');

    const real = await runPipeline(
      { bytes: await readFile(path.join(receiptsDir, 'X51005568881.jpg')), mimeType: 'image/jpeg' },
      engine,
      async () => undefined,
      signal(),
    );
    expect(real.fullText).toContain('HON HWA');
    expect(extractReceipt({ content: real.fullText, documents: [{ fields: {} }] }).total).toBe(10.4);
  });
});
