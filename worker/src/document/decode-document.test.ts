import { deflateSync, crc32 } from 'node:zlib';
import { sniffMimeType } from '@receipts/common';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { heicClaiming, hugeImagePdf } from '../../../tests/support/decode-bombs.js';
import { controlGlyphPdf, emptyPdf, encryptedPdf, textPdf } from '../../../tests/support/pdf-fixtures.js';
import { printedReceipt, PRINTED_RECEIPT_LINES } from '../../../tests/support/printed-receipt.js';
import { UnreadableFileError } from '../page/unreadable-file.error.js';
import { decodeDocument, MAX_OCR_SIDE, MAX_PDF_PAGES } from './decode-document.js';
import { closeDecoding } from './decode.sandbox.js';

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

/** A little-endian TIFF whose one page claims `width` × `height` 8-bit gray pixels in one strip. */
function tiffClaiming(width: number, height: number): Buffer {
  const entries: Array<[tag: number, type: number, value: number]> = [
    [256, 4, width], // ImageWidth
    [257, 4, height], // ImageLength
    [258, 3, 8], // BitsPerSample
    [259, 3, 1], // no compression
    [262, 3, 1], // BlackIsZero
    [273, 4, 8], // StripOffsets
    [277, 3, 1], // SamplesPerPixel
    [278, 4, height], // RowsPerStrip
    [279, 4, width * height], // StripByteCounts
  ];
  const ifd = Buffer.alloc(2 + entries.length * 12 + 4);
  ifd.writeUInt16LE(entries.length, 0);
  entries.forEach(([tag, type, value], i) => {
    ifd.writeUInt16LE(tag, 2 + i * 12);
    ifd.writeUInt16LE(type, 4 + i * 12);
    ifd.writeUInt32LE(1, 6 + i * 12);
    if (type === 3) ifd.writeUInt16LE(value, 10 + i * 12);
    else ifd.writeUInt32LE(value >>> 0, 10 + i * 12);
  });
  const header = Buffer.from([0x49, 0x49, 42, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  return Buffer.concat([header, ifd, Buffer.alloc(256)]);
}

/** A GIF whose logical screen and first frame claim `width` × `height`, with one tiny LZW block. */
function gifClaiming(width: number, height: number): Buffer {
  const head = Buffer.alloc(13);
  head.write('GIF89a', 0, 'latin1');
  head.writeUInt16LE(width, 6);
  head.writeUInt16LE(height, 8);
  head[10] = 0x80; // global colour table of 2 entries
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c;
  descriptor.writeUInt16LE(width, 5);
  descriptor.writeUInt16LE(height, 7);
  return Buffer.concat([head, Buffer.from([0, 0, 0, 255, 255, 255]), descriptor, Buffer.from([2, 2, 0x44, 0x01, 0, 0x3b])]);
}

const solid = (colour: string, width = 120, height = 80) => sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();
const firstPixel = async (png: Buffer) => [...(await sharp(png).raw().toBuffer()).subarray(0, 3)];

describe('decodeDocument', () => {
  afterAll(closeDecoding);

  it.each(['jpeg', 'png', 'webp', 'gif', 'tiff'] as const)('reads %s as a colour page', async (format) => {
    const bytes = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#f0a040' } })[format]().toBuffer();
    const doc = await decode(bytes);
    expect(doc.mimeType).toBe(sniffMimeType(bytes));
    expect(doc.pages).toHaveLength(1);
    const meta = await sharp(doc.pages[0]!.image).metadata();
    expect([meta.format, meta.width, meta.height, meta.channels]).toEqual(['png', 300, 200, 3]);
    const [r, g, b] = await firstPixel(doc.pages[0]!.image);
    // Colour survives (within the GIF palette's rounding).
    expect(r! - b!).toBeGreaterThan(150);
    expect(g).toBeGreaterThan(120);
  });

  it('reads each page of a multi-page TIFF as a page, up to the page limit', async () => {
    const colours = ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#00ffff', '#ff00ff', '#000000'];
    const tiff = await sharp(await Promise.all(colours.map((c) => solid(c))), { join: { animated: true } }).tiff().toBuffer();
    expect((await sharp(tiff).metadata()).pages).toBe(colours.length);
    const doc = await decode(tiff);
    expect(doc.mimeType).toBe('image/tiff');
    expect(doc.pages).toHaveLength(MAX_PDF_PAGES);
    // Primaries, give or take the rounding of a colour-space round trip.
    const pixels = await Promise.all(doc.pages.map(async (p) => (await firstPixel(p.image)).map((v) => Math.round(v / 255) * 255)));
    expect(pixels).toEqual([
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
      [255, 255, 0],
      [0, 255, 255],
    ]);
  });

  it('reads the first frame of an animated GIF only', async () => {
    const gif = await sharp(await Promise.all(['#ff0000', '#0000ff'].map((c) => solid(c))), { join: { animated: true } }).gif().toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(2);
    const doc = await decode(gif);
    expect(doc.pages).toHaveLength(1);
    const [r, , b] = await firstPixel(doc.pages[0]!.image);
    expect(r).toBeGreaterThan(200);
    expect(b).toBeLessThan(50);
  });

  it('flattens transparency onto white', async () => {
    const png = await sharp({ create: { width: 50, height: 50, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    const page = (await decode(png)).pages[0]!;
    expect((await sharp(page.image).metadata()).hasAlpha).toBe(false);
    expect(await firstPixel(page.image)).toEqual([255, 255, 255]);
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

  it('reads a PDF text layer without OCR, in reading order, with each line and its box', async () => {
    const doc = await decode(textPdf([['SRI BINTANG HARDWARE TRADING', 'Date: 21/09/2017', 'TOTAL 10.40']]));
    expect(doc.pages).toHaveLength(0);
    expect(doc.textLayer).toBe('SRI BINTANG HARDWARE TRADING\nDate: 21/09/2017\nTOTAL 10.40');
    expect(doc.textLines!.map((l) => l.text).join('\n')).toBe(doc.textLayer);
    expect(doc.textLines!.map((l) => l.page)).toEqual([1, 1, 1]);
    // textPdf writes 14 pt Helvetica from x = 72 pt, baselines at 740, 720, 700 pt on a 612 × 792 pt page.
    const [first, second] = doc.textLines!;
    expect(first!.box.x).toBeCloseTo(72 / 612, 3);
    expect(first!.box.y).toBeCloseTo((792 - 740 - 0.8 * 14) / 792, 3);
    expect(first!.box.height).toBeCloseTo(14 / 792, 3);
    expect(second!.box.y - first!.box.y).toBeCloseTo(20 / 792, 3);
    // Helvetica capitals run about 0.67 em: 24 characters of 14 pt.
    expect(first!.box.width).toBeGreaterThan((24 * 14 * 0.55) / 612);
    expect(first!.box.width).toBeLessThan((24 * 14 * 0.8) / 612);
  });

  it('numbers text lines by page, with no blank line between pages', async () => {
    const doc = await decode(textPdf([['RECEIPT NUMBER ONE', 'TOTAL 1.00'], ['SECOND PAGE OF IT', 'TOTAL 2.00']]));
    expect(doc.textLayer).toBe('RECEIPT NUMBER ONE\nTOTAL 1.00\nSECOND PAGE OF IT\nTOTAL 2.00');
    expect(doc.textLines!.map((l) => [l.page, l.text])).toEqual([
      [1, 'RECEIPT NUMBER ONE'],
      [1, 'TOTAL 1.00'],
      [2, 'SECOND PAGE OF IT'],
      [2, 'TOTAL 2.00'],
    ]);
  });

  it('leaves out the control characters a font maps glyphs to, which no text column stores', async () => {
    const doc = await decode(controlGlyphPdf(['SRI BINTANG~ HARDWARE', 'Date: 21/09/2017^', 'TOTAL~~ 10.40']));
    expect(doc.textLayer).toBe('SRI BINTANG HARDWARE\nDate: 21/09/2017\nTOTAL 10.40');
    expect(doc.textLines!.map((l) => l.text)).toEqual(['SRI BINTANG HARDWARE', 'Date: 21/09/2017', 'TOTAL 10.40']);
  });

  it('reads only the first pages of a 300-page PDF', async () => {
    const pages = Array.from({ length: 300 }, (_, i) => [`Page ${i + 1} of the statement, balance 12.34`]);
    const started = Date.now();
    const doc = await decode(textPdf(pages));
    expect(new Set(doc.textLines!.map((l) => l.page))).toEqual(new Set(Array.from({ length: MAX_PDF_PAGES }, (_, i) => i + 1)));
    expect(doc.textLayer!.split('\n')).toHaveLength(MAX_PDF_PAGES);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it.each<[string, () => Buffer | Promise<Buffer>, RegExp]>([
    ['a zero-byte file', () => Buffer.alloc(0), /damaged or incomplete/],
    ['a truncated JPEG', async () => (await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' })).subarray(0, 3000), /damaged or incomplete/],
    ['a PNG claiming 50 000 × 50 000 pixels', () => pngClaiming(50_000, 50_000), /^This image is too large to process \(more than 80 megapixels\)\.$/],
    ['a TIFF claiming 10 000 × 9 000 pixels', () => tiffClaiming(10_000, 9_000), /^This image is too large to process \(more than 80 megapixels\)\.$/],
    ['a GIF claiming 65 535 × 65 535 pixels', () => gifClaiming(65_535, 65_535), /^This image is too large to process \(more than 80 megapixels\)\.$/],
    ['a HEIC whose header claims 30 000 × 30 000 pixels', () => heicClaiming(30_000, 30_000), /^This image is too large to process \(more than 80 megapixels\)\.$/],
    ['a PDF showing a 20 000 × 20 000 image', () => hugeImagePdf(20_000), /^This file is too large to process \(more than 80 megapixels\)\.$/],
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

  it('reads a HEIC that claims a modest size as far as its (absent) image data allows', async () => {
    // The header check passes; the decoder then finds no HEVC data: refused as unreadable, not as too large.
    const error = await decodeDocument(heicClaiming(4032, 3024), 'image/heic', signal()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadableFileError);
    expect((error as Error).message).toBe('This HEIC file contains no readable image.');
  });
});
