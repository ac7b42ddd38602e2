import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

/** Lines of a small made-up receipt whose total reads 10.40. */
export const PRINTED_RECEIPT_LINES = ['CORNER HARDWARE TRADING', 'DATE 21/09/2024 10:20', 'NAILS 5.40', 'HINGES 5.00', 'TOTAL 10.40', 'CASH 20.00', 'CHANGE 9.60'];

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A receipt printed from SVG text lines on white paper: tests make their own receipts. PNG by
 * default; JPEG where a test wants what a camera or scanner gives.
 */
export async function printedReceipt(
  lines: readonly string[] = PRINTED_RECEIPT_LINES,
  options: { fontSize?: number; blur?: number; format?: 'png' | 'jpeg' } = {},
): Promise<Buffer> {
  const size = options.fontSize ?? 28;
  const width = size * 18;
  const height = Math.round(size * (1.6 * lines.length + 2));
  const text = lines
    .map((l, i) => `<text xml:space="preserve" x="${size}" y="${size * (1.8 + 1.6 * i)}" font-family="DejaVu Sans Mono" font-size="${size * 0.8}" fill="#111">${escape(l)}</text>`)
    .join('');
  let image = sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`));
  if (options.blur) image = image.blur(options.blur);
  return options.format === 'jpeg' ? image.flatten({ background: '#fff' }).jpeg({ quality: 90 }).toBuffer() : image.png().toBuffer();
}

const SHOPS = ['MAPLE LEAF HARDWARE TRADING', 'SUNRISE BAKERY', 'HARBOUR STATIONERY', 'GREEN VALLEY MART', 'RIVERSIDE CAFE', 'NORTHWIND TRADING LTD'];
const GOODS = ['BREAD', 'MILK', 'PAPER A4', 'NAILS', 'COFFEE', 'PENCILS', 'SOAP', 'RICE'];

/** The lines of the `n`th of a run of made-up receipts: each its own shop, date and total. */
export function madeUpReceiptLines(n: number): string[] {
  const first = 1 + (n % 7) + (n % 3) / 10;
  const second = 2 + ((3 * n) % 5) + ((n % 4) * 25) / 100;
  const day = String(1 + (n % 28)).padStart(2, '0');
  return [
    SHOPS[n % SHOPS.length]!,
    `DATE ${day}/0${1 + (n % 9)}/2024 1${n % 10}:2${n % 6}`,
    `${GOODS[n % GOODS.length]} ${first.toFixed(2)}`,
    `${GOODS[(n + 3) % GOODS.length]} ${second.toFixed(2)}`,
    `TOTAL ${(first + second).toFixed(2)}`,
  ];
}

/** `count` made-up receipts as JPEG bytes. */
export function madeUpReceipts(count: number): Promise<Buffer[]> {
  return Promise.all(Array.from({ length: count }, (_, n) => printedReceipt(madeUpReceiptLines(n), { format: 'jpeg' })));
}

/** Made-up receipts written to `dir` under `names` (for a browser's file input); their paths. */
export async function writeMadeUpReceipts(dir: string, names: readonly string[], offset = 0): Promise<string[]> {
  return Promise.all(
    names.map(async (name, i) => {
      const file = path.join(dir, name);
      await writeFile(file, await printedReceipt(madeUpReceiptLines(offset + i), { format: 'jpeg' }));
      return file;
    }),
  );
}
