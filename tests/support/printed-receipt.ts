import sharp from 'sharp';

/** Lines of a small made-up receipt whose total reads 10.40. */
export const PRINTED_RECEIPT_LINES = ['CORNER HARDWARE TRADING', 'DATE 21/09/2024 10:20', 'ROD 5.40', 'WALLPLUG 5.00', 'TOTAL 10.40', 'CASH 20.00', 'CHANGE 9.60'];

/** A receipt printed from SVG text lines on white paper, as a PNG: tests make their own receipts. */
export async function printedReceipt(lines: readonly string[] = PRINTED_RECEIPT_LINES, options: { fontSize?: number; blur?: number } = {}): Promise<Buffer> {
  const size = options.fontSize ?? 28;
  const width = size * 18;
  const height = Math.round(size * (1.6 * lines.length + 2));
  const text = lines
    .map((l, i) => `<text xml:space="preserve" x="${size}" y="${size * (1.8 + 1.6 * i)}" font-family="DejaVu Sans Mono" font-size="${size * 0.8}" fill="#111">${l}</text>`)
    .join('');
  const image = sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`));
  return (options.blur ? image.blur(options.blur) : image).png().toBuffer();
}
