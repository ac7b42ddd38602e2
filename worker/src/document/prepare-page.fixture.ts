import sharp from 'sharp';
import type { PageImage } from '../ocr/ocr-engine.js';
import type { Box } from './prepare-page.raster.js';

const LINES = [
  'CORNER GROCERY',
  '12 HIGH STREET',
  'DATE 14/03/2024 10:42',
  'MILK 2L            2.49',
  'BREAD              1.85',
  'APPLES 1KG         3.20',
  'COFFEE BEANS      11.90',
  'CHEESE             4.75',
  'SUBTOTAL          24.19',
  'TAX                1.98',
  'TOTAL             26.17',
  'CARD              26.17',
  'THANK YOU FOR SHOPPING',
];
export const FIXTURE_TOTAL = '26.17';

/** Dark mottled noise, like a table or a car seat, so the paper is found by brightness and not by a plain edge. */
async function texture(width: number, height: number): Promise<Buffer> {
  const noise = Buffer.alloc(width * height);
  // A fixed linear congruential sequence: the same picture every run.
  let seed = 7;
  for (let i = 0; i < noise.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    noise[i] = 40 + (seed % 50);
  }
  return sharp(noise, { raw: { width, height, channels: 1 } }).blur(1.2).toColourspace('b-w').png().toBuffer();
}

/**
 * A phone photo of a receipt made up for tests: print rendered from SVG onto white paper lying on a
 * textured background, the paper at `paper` in the frame.
 */
export async function syntheticPhoto(options: { width?: number; height?: number; fontSize?: number } = {}): Promise<PageImage & { paper: Box }> {
  const width = options.width ?? 1400;
  const height = options.height ?? 1800;
  const fontSize = options.fontSize ?? 30;
  const paper: Box = { left: Math.round(width * 0.3), top: Math.round(height * 0.12), width: Math.round(fontSize * 15), height: Math.round(fontSize * 1.6 * LINES.length + 2 * fontSize) };
  const text = LINES.map(
    (line, i) => `<text xml:space="preserve" x="${fontSize * 0.6}" y="${fontSize * (1.8 + 1.6 * i)}" font-family="DejaVu Sans Mono" font-size="${fontSize * 0.8}" fill="#111">${line}</text>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${paper.width}" height="${paper.height}"><rect width="100%" height="100%" fill="#f4f4f0"/>${text}</svg>`;
  const image = await sharp(await texture(width, height))
    .composite([{ input: Buffer.from(svg), left: paper.left, top: paper.top }])
    .grayscale()
    .png()
    .toBuffer();
  return { image, width, height, paper };
}
