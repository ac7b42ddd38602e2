/**
 * Hostile files made on the spot for the decoding tests: small on disk, ruinous to decode
 * naively. Nothing here is committed as bytes.
 */
import { constants, deflateRawSync, deflateSync } from 'node:zlib';
import { assemblePdf } from './pdf-fixtures.js';

const streamObject = (dict: string, data: Buffer) =>
  Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);

const onePage = (pageDict: string, content: Buffer, extra: Buffer[] = []) =>
  assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Contents 4 0 R ${pageDict} >>`,
    streamObject('/Filter /FlateDecode', deflateSync(content)),
    ...extra,
  ]);

/**
 * One page whose content stream strokes `operators` path operators, flate-compressed: tens of
 * KB that take a naive rasteriser minutes and gigabytes.
 */
export function pathBombPdf(operators = 1_000_000): Buffer {
  const ops: string[] = ['0.1 w'];
  for (let i = 0; i < operators; i++) ops.push(i % 2 === 0 ? `${i % 600} ${(i * 7) % 800} m` : `${(i * 3) % 600} ${(i * 11) % 800} l S`);
  ops.push('S');
  return onePage('', Buffer.from(ops.join('\n'), 'latin1'));
}

/** Adler-32 of `times` copies of a block with checksum halves `a`, `b` and length `len` (zlib's adler32_combine). */
function adlerRepeated(a: number, b: number, len: number, times: number): number {
  const M = 65521;
  let [ra, rb] = [a, b];
  for (let i = 1; i < times; i++) {
    rb = (rb + b + ((len % M) * ((ra - 1 + M) % M))) % M;
    ra = (ra + a - 1) % M;
  }
  return ((rb << 16) | ra) >>> 0;
}

/**
 * A `side` × `side` image of white 8-bit gray pixels as one flate stream with PNG row filters,
 * built from one compressed block repeated (never holding the raw image): 20000² is 400 MB of
 * pixels (1.6 GB as RGBA) in ~400 KB.
 */
function whiteImageStream(side: number): Buffer {
  const row = Buffer.alloc(1 + side, 0xff);
  row[0] = 0; // PNG filter "None"
  const rowsPerBlock = 100;
  const block = Buffer.concat(Array.from({ length: rowsPerBlock }, () => row));
  const times = Math.ceil(side / rowsPerBlock);
  // Raw deflate pieces ending in a sync flush concatenate into one valid stream.
  const piece = deflateRawSync(block, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const last = deflateRawSync(Buffer.alloc(0), { finishFlush: constants.Z_FINISH });
  let a = 1;
  let b = 0;
  for (const byte of block) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(adlerRepeated(a, b, block.length, times));
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: times }, () => piece), last, adler]);
}

/** One page showing a `side` × `side` image (default 20000², 400 megapixels) in a few hundred KB. */
export function hugeImagePdf(side = 20_000): Buffer {
  const image = streamObject(
    `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 ` +
      `/Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 1 /Columns ${side} >>`,
    whiteImageStream(side),
  );
  return onePage('/Resources << /XObject << /Im1 5 0 R >> >>', Buffer.from('q 600 0 0 800 0 0 cm /Im1 Do Q', 'latin1'), [image]);
}

/** An ISO-BMFF box: 32-bit size, type, body. */
function box(type: string, ...body: Buffer[]): Buffer {
  const content = Buffer.concat(body);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + content.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, content]);
}
const fullBox = (type: string, ...body: Buffer[]) => box(type, Buffer.alloc(4), ...body);
const u32 = (...values: number[]) => Buffer.concat(values.map((v) => Buffer.from([v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255])));

/**
 * A HEIC whose primary image's `ispe` property claims `width` × `height` pixels, with a few
 * bytes of (not really) HEVC data behind it: what a decoder that trusts the header would
 * allocate for.
 */
export function heicClaiming(width: number, height: number): Buffer {
  const ftyp = box('ftyp', Buffer.from('heic', 'latin1'), u32(0), Buffer.from('mif1heic', 'latin1'));
  const hdlr = fullBox('hdlr', u32(0), Buffer.from('pict', 'latin1'), Buffer.alloc(12), Buffer.from('\0'));
  const pitm = fullBox('pitm', Buffer.from([0, 1]));
  const infe = box('infe', Buffer.from([2, 0, 0, 0]), Buffer.from([0, 1, 0, 0]), Buffer.from('hvc1', 'latin1'), Buffer.from('\0'));
  const iinf = fullBox('iinf', Buffer.from([0, 1]), infe);
  const ispe = fullBox('ispe', u32(width, height));
  const ipco = box('ipco', ispe);
  const ipma = fullBox('ipma', u32(1), Buffer.from([0, 1, 1, 0x81]));
  const iprp = box('iprp', ipco, ipma);
  const mdatBody = Buffer.alloc(64, 0x42);
  // iloc v0, offset/length 4 bytes each; the offset is patched once the layout is known.
  const ilocFor = (offset: number) => fullBox('iloc', Buffer.from([0x44, 0x00]), Buffer.from([0, 1]), Buffer.from([0, 1, 0, 0]), Buffer.from([0, 1]), u32(offset, mdatBody.length));
  const metaFor = (offset: number) => fullBox('meta', hdlr, pitm, ilocFor(offset), iinf, iprp);
  const offset = ftyp.length + metaFor(0).length + 8;
  return Buffer.concat([ftyp, metaFor(offset), box('mdat', mdatBody)]);
}
