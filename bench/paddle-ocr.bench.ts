// npx tsx bench/paddle-ocr.bench.ts — PaddleOCR (PP-OCRv4 on onnxruntime) beside tesseract.js on
// 10 world photos and 5 SROIE scans: time and CPU per page, RSS, and how often each engine's text
// holds the labelled total and date, and how long paddle's pages hold the main event loop (they are
// read in a worker thread). One page at a time: the machine's cores are shared. Then the models as
// the package ships them beside the rewritten graphs the engine loads (paddle-graph.rewrite.ts),
// taking turns page by page on this thread: CPU per page, the median of paired ratios, and whether
// they read the same text.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import Tesseract from 'tesseract.js';
import { createPaddleOcr } from '@receipts/worker';
import { loadPaddleModels, readPaddlePage, type PaddleModels } from '@receipts/worker/paddle-reader';
import { loadLabels, loadWorldLabels, receiptsDir, worldDir } from '#test-support/receipt-data';

const require = createRequire(path.resolve('worker/package.json'));
const PHOTOS = 10;
const SCANS = 5;
const IMAGE_FORMATS = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);
const signal = new AbortController().signal;

interface Sample {
  file: string;
  total: string;
  date?: string;
  image: Buffer;
}

/** As the worker hands pages over: upright, grayscale, at most 3500 px on the long side. */
async function page(file: string, rotate: number): Promise<Buffer> {
  return sharp(await readFile(file), { animated: false })
    .rotate(rotate)
    .grayscale()
    .resize(3500, 3500, { fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer();
}

const world = (await loadWorldLabels()).filter((l) => l.kind === 'photo' && IMAGE_FORMATS.has(l.format)).sort((a, b) => a.file.localeCompare(b.file));
const sroie = await loadLabels();
const samples: Sample[] = [];
// Evenly spread over the sorted lists, so every country and size class has a chance.
for (let i = 0; i < PHOTOS; i++) {
  const l = world[Math.floor((i * world.length) / PHOTOS)]!;
  samples.push({ file: l.file, total: l.total, date: l.date, image: await page(path.join(worldDir, l.file), l.rotated) });
}
for (let i = 0; i < SCANS; i++) {
  const l = sroie[Math.floor((i * sroie.length) / SCANS)]!;
  samples.push({ file: l.file, total: l.total.replace(/^[^\d]+/, ''), date: l.date, image: await page(path.join(receiptsDir, l.file), 0) });
}

/** The total as printed: "87.52" or "87,52"; amounts without decimals also with a thousands separator. */
function hasTotal(text: string, total: string): boolean {
  const [whole, cents] = total.split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+$)/g, '[.,\' ]?');
  return new RegExp(`(?<![\\d.,])${grouped}${cents ? `\\s?[.,]\\s?${cents}` : ''}(?![\\d]|[.,]\\d)`).test(text);
}
const compact = (s: string) => s.normalize('NFKC').replace(/\s+/g, '').toLowerCase();
const hasDate = (text: string, date: string | undefined) => !!date && compact(text).includes(compact(date));

interface Run {
  ms: number;
  cpu: number;
  total: boolean;
  date: boolean;
  confidence: number;
}

async function measure(read: (image: Buffer) => Promise<{ text: string; confidence: number }>): Promise<Run[]> {
  const runs: Run[] = [];
  for (const s of samples) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const { text, confidence } = await read(s.image);
    const used = process.cpuUsage(cpu);
    runs.push({ ms: performance.now() - started, cpu: (used.user + used.system) / 1e6, total: hasTotal(text, s.total), date: hasDate(text, s.date), confidence });
  }
  return runs;
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const tiny = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } }).png().toBuffer();

// Paddle first: maxRSS only grows, so its peak is measured before tesseract's workers exist.
const paddle = createPaddleOcr();
const rssBefore = process.memoryUsage().rss;
await paddle.recognizePage(tiny, signal);
const rssLoaded = process.memoryUsage().rss;
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const paddleRuns = await measure(async (image) => {
  const { lines, confidence } = await paddle.recognizePage(image, signal);
  return { text: lines.map((l) => l.text).join('\n'), confidence };
});
loopDelay.disable();
const rssAfter = process.memoryUsage().rss;
const paddlePeak = process.resourceUsage().maxRSS * 1024;
await paddle.close();

const worker = await Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
  langPath: (require('@tesseract.js-data/eng') as { langPath: string }).langPath,
  gzip: true,
  cacheMethod: 'none',
});
const tesseractRuns = await measure(async (image) => {
  const { data } = await worker.recognize(image);
  return { text: data.text, confidence: data.confidence / 100 };
});
await worker.terminate();

const yes = (b: boolean) => (b ? 'yes' : ' - ');
console.log('file                        | paddle s  cpu-s conf total date | tesseract s  cpu-s conf total date');
samples.forEach((s, i) => {
  const p = paddleRuns[i]!;
  const t = tesseractRuns[i]!;
  const cols = (r: Run) => `${(r.ms / 1000).toFixed(1).padStart(8)} ${r.cpu.toFixed(1).padStart(6)} ${r.confidence.toFixed(2)}  ${yes(r.total)}   ${yes(r.date)}`;
  console.log(`${s.file.padEnd(27)} | ${cols(p)} | ${cols(t)}`);
});
const summary = (name: string, runs: Run[]) => {
  const n = runs.length;
  const sum = (f: (r: Run) => number) => runs.reduce((a, r) => a + f(r), 0);
  console.log(
    `${name}: ${(sum((r) => r.ms) / n / 1000).toFixed(1)} s/page, ${(sum((r) => r.cpu) / n).toFixed(1)} CPU-s/page, ` +
      `total found ${sum((r) => +r.total)}/${n}, date found ${sum((r) => +r.date)}/${n}`,
  );
};
summary('paddle   ', paddleRuns);
summary('tesseract', tesseractRuns);
console.log(`paddle, main event-loop delay while reading: max ${(loopDelay.max / 1e6).toFixed(0)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(0)} ms`);
console.log(`paddle RSS: ${mb(rssBefore)} MB before, +${mb(rssLoaded - rssBefore)} MB with the sessions loaded, ${mb(rssAfter)} MB after ${samples.length} pages, peak ${mb(paddlePeak)} MB`);

// The graphs as shipped and as rewritten, in the same minutes, on the same pages.
const graphs = { shipped: await loadPaddleModels({ asShipped: true }), rewritten: await loadPaddleModels() };
const detector = { maxSide: 960 };
const ratios: number[] = [];
const cpu = { shipped: 0, rewritten: 0 };
let sameText = 0;
for (const [i, s] of samples.entries()) {
  const order: Array<keyof typeof graphs> = i % 2 ? ['shipped', 'rewritten'] : ['rewritten', 'shipped'];
  const seconds: Record<string, number> = {};
  const texts: Record<string, string> = {};
  for (const side of order) {
    const models: PaddleModels = graphs[side];
    const started = process.cpuUsage();
    const { lines } = await readPaddlePage(models, s.image, detector, signal);
    const used = process.cpuUsage(started);
    seconds[side] = (used.user + used.system) / 1e6;
    texts[side] = lines.map((l) => l.text).join('\n');
    cpu[side] += seconds[side];
  }
  ratios.push(seconds.rewritten! / seconds.shipped!);
  if (texts.rewritten === texts.shipped) sameText++;
}
ratios.sort((a, b) => a - b);
const n = samples.length;
console.log(
  `paddle graphs: shipped ${(cpu.shipped / n).toFixed(2)} CPU-s/page, rewritten ${(cpu.rewritten / n).toFixed(2)} CPU-s/page; ` +
    `rewritten ÷ shipped ${(cpu.rewritten / cpu.shipped).toFixed(3)}, median of ${n} paired ratios ${ratios[Math.floor(n / 2)]!.toFixed(3)}; ` +
    `same text on ${sameText}/${n} pages`,
);
