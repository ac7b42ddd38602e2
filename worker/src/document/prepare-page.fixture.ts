import sharp from 'sharp';
import type { PageImage } from '../page/page.types.js';
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

/** Bars standing for lines of print on the tilted receipt: [top, height] as shares of the paper's height, all from 10 % to 90 % of its width. */
export const TILTED_BARS: Array<[number, number]> = Array.from({ length: 8 }, (_, i) => [0.1 + 0.1 * i, 0.03]);

/**
 * A receipt photographed at an angle: white paper with dark bars (lines of print) seen as the
 * quadrilateral `corners` (top left, top right, bottom right, bottom left) on a textured frame.
 * `toFrame` maps a point of the flat paper (0..1 each way) to the frame, the projection the
 * corners define; straight lines stay straight, so each bar is drawn as the polygon of its corners.
 */
export async function tiltedPhoto(
  corners: Array<[number, number]>,
  toFrame: (u: number, v: number) => [number, number],
  frame = { width: 1200, height: 1600 },
): Promise<PageImage> {
  const polygon = (points: Array<[number, number]>, fill: string) => `<polygon points="${points.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(' ')}" fill="${fill}"/>`;
  const bars = TILTED_BARS.map(([top, height]) =>
    polygon([toFrame(0.1, top), toFrame(0.9, top), toFrame(0.9, top + height), toFrame(0.1, top + height)], '#151515'),
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${frame.width}" height="${frame.height}">${polygon(corners, '#f2f2ee')}${bars}</svg>`;
  const image = await sharp(await texture(frame.width, frame.height))
    .composite([{ input: Buffer.from(svg) }])
    .grayscale()
    .png()
    .toBuffer();
  return { image, ...frame };
}
