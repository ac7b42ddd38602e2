// npx tsx bench/prepare-page.bench.ts [orientation|osd|extraction|perspective|all] [--quick] (osd: orientation
// without the slow trial rotations; --quick: extraction for today and preparePage only; perspective: extraction
// for preparePage with and without perspective correction, what it warped and its CPU, the warped pages also read
// by PaddleOCR, which reads photos first in the local engine) — what each page-preparation step
// (worker/src/document/*.step.ts) does for OCR on ../shared/receipts-world and a sample of the SROIE
// scans: fields right after extraction and the labelled total found in the OCR text, today's decoded
// image against prepared ones (all steps, and all but one), tune and report halves apart (by a hash of each file's bytes), CPU per image;
// and orientation: tesseract OSD against trial rotations judged by OCR confidence.
// OCR results are cached in /tmp/prepare-page-bench by image hash, so reruns only read what changed.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { extractReceipt } from '@receipts/common';
import sharp from 'sharp';
import Tesseract from 'tesseract.js';
import { deskewPage } from '../worker/src/document/deskew.step.js';
import { evenIllumination } from '../worker/src/document/illumination.step.js';
import { chooseTurn, guessOrientation, orientPage, turnPage } from '../worker/src/document/orientation.step.js';
import { preparePage } from '../worker/src/document/prepare-page.js';
import { straightenReceipt } from '../worker/src/document/perspective.step.js';
import { cropToReceipt } from '../worker/src/document/receipt-crop.step.js';
import { scaleText } from '../worker/src/document/text-scale.step.js';
import type { PageImage } from '../worker/src/page/page.types.js';
import { createPaddleOcr, type PaddleOcr } from '../worker/src/ocr/paddle-ocr.engine.js';
import { readingOrder } from '../worker/src/ocr/reading-order.js';
import { closeOrientationDetector, type OrientationGuess } from '../worker/src/tesseract/orientation.detector.js';
import { dateMatches, loadWorldLabels, merchantMatches, totalMatches, worldDir } from '../tests/support/receipts-world.js';
import { HALVES, halfOfBytes, type Half } from '../tests/support/receipt-sets.js';
import { receiptsDir } from '../tests/support/service-process.js';
import { labelDate, labelTotal, loadLabels, MERCHANT_SIMILARITY, nameSimilarity } from '../tests/support/sroie.js';

const mode = process.argv[2] ?? 'all';
const quick = process.argv.includes('--quick');
const CACHE = '/tmp/prepare-page-bench';
/** Every SCAN_STEP-th SROIE scan goes into the extraction run (all 40 into the orientation run). */
const SCAN_STEP = 4;
/** Trial rotations OCR a copy this size (long side). */
const TRIAL_SIDE = 1400;
const signal = new AbortController().signal;
const require = createRequire(import.meta.url);
await mkdir(CACHE, { recursive: true });

interface Item {
  file: string;
  kind: string;
  half: Half;
  /** Clockwise turn the decoded (EXIF-applied) page needs. */
  rotated: number;
  language: string;
  total: string;
  score(content: string): { total: boolean; date: boolean; merchant: boolean };
}

async function items(): Promise<Item[]> {
  const world = (await loadWorldLabels())
    .filter((l) => l.kind !== 'pdf')
    .map((label): Item => {
      // EXIF 6 (90° clockwise) is applied by decoding; `rotated` counts the stored pixels.
      const exif = (label as { exif_orientation?: number }).exif_orientation === 6 ? 90 : 0;
      return {
        file: path.join(worldDir, label.file),
        kind: label.kind,
        half: halfOfBytes(readFileSync(path.join(worldDir, label.file))),
        rotated: (label.rotated - exif + 360) % 360,
        language: label.language,
        total: label.total,
        score(content) {
          const r = extractReceipt({ content, documents: [{ fields: {} }] }, { now: new Date() });
          return { total: totalMatches(r.total, label), date: dateMatches(r.date, label), merchant: merchantMatches(r.merchantName, label) };
        },
      };
    });
  const scans = (await loadLabels()).map((label): Item => ({
    file: path.join(receiptsDir, label.file),
    kind: 'sroie',
    half: halfOfBytes(readFileSync(path.join(receiptsDir, label.file))),
    rotated: 0,
    language: 'en',
    total: String(labelTotal(label)),
    score(content) {
      const r = extractReceipt({ content, documents: [{ fields: {} }] }, { now: new Date() });
      return { total: r.total === labelTotal(label), date: r.date === labelDate(label), merchant: nameSimilarity(r.merchantName, label.company) >= MERCHANT_SIMILARITY };
    },
  }));
  return [...world, ...scans];
}

/** Whether the labelled total is printed in the text, with either decimal mark and any thousands grouping. */
function totalInText(total: string, text: string): boolean {
  const [int, dec] = Number(total).toFixed(2).split('.') as [string, string];
  const grouped = int.replace(/\B(?=(\d{3})+$)/g, '[.,\\s]?');
  const decimals = Number(dec) === 0 && !total.includes('.') ? `([.,]\\s?${dec})?` : `[.,]\\s?${dec}`;
  return new RegExp(`(^|[^\\d])${grouped}${decimals}($|[^\\d])`).test(text);
}

let ocrWorker: Promise<Tesseract.Worker> | undefined;
const worker = () =>
  (ocrWorker ??= Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    langPath: (require('@tesseract.js-data/eng') as { langPath: string }).langPath,
    gzip: true,
    cacheMethod: 'none',
    errorHandler: (err: unknown) => console.error('ocr worker:', err),
  }));

let paddleOcr: PaddleOcr | undefined;

/** PaddleOCR's reading of an image, its lines in reading order as the local engine joins them; cached by its bytes. */
async function paddleText(image: Buffer): Promise<string> {
  const file = path.join(CACHE, `paddle-${createHash('sha256').update(image).digest('hex')}.txt`);
  if (existsSync(file)) return readFile(file, 'utf8');
  const { lines } = await (paddleOcr ??= createPaddleOcr()).recognizePage(image, signal);
  const text = readingOrder(lines).map((l) => l.text).join('\n');
  await writeFile(file, text);
  return text;
}

interface Ocr {
  text: string;
  confidence: number;
  cpuMs: number;
}

/** OCR of an image, cached by its bytes. */
async function ocr(image: Buffer): Promise<Ocr> {
  const file = path.join(CACHE, `${createHash('sha256').update(image).digest('hex')}.json`);
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as Ocr;
  const w = await worker();
  const cpu = process.cpuUsage();
  const { data } = await w.recognize(image);
  const used = process.cpuUsage(cpu);
  const result = { text: data.text, confidence: data.confidence, cpuMs: (used.user + used.system) / 1000 };
  await writeFile(file, JSON.stringify(result));
  return result;
}

async function cpuOf<T>(task: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const before = process.cpuUsage();
  const result = await task();
  const used = process.cpuUsage(before);
  return { result, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * Today's decoded page, as decode-document.ts made it when this bench was written (EXIF applied,
 * long side ≤ 3500, grayscale PNG); kept here so the bench does not move with the decoder's rework.
 */
async function decode(item: Item): Promise<PageImage> {
  const { data, info } = await sharp(await readFile(item.file))
    .rotate()
    .resize({ width: 3500, height: 3500, fit: 'inside', withoutEnlargement: true })
    .toColourspace('b-w')
    .png({ compressionLevel: 1 })
    .toBuffer({ resolveWithObject: true });
  return { image: data, width: info.width, height: info.height };
}

type Step = 'crop' | 'illumination' | 'orientation' | 'deskew' | 'scale' | 'perspective';
/** The steps preparePage applies, in its order; deskew, text scaling and perspective are measured as additions. */
const KEPT: Step[] = ['crop', 'illumination', 'orientation'];
const TRIED: Step[] = ['deskew', 'scale', 'perspective'];

/** The page through the given steps, in preparePage's order (perspective with the crop, deskew and scale after orientation). */
async function prepareWith(page: PageImage, steps: Step[]): Promise<PageImage> {
  let p = page;
  if (steps.includes('perspective')) p = (await straightenReceipt(p, { signal })).page;
  else if (steps.includes('crop')) p = (await cropToReceipt(p)).page;
  if (steps.includes('illumination')) p = (await evenIllumination(p)).page;
  if (steps.includes('orientation')) p = (await orientPage(p, { signal })).page;
  if (steps.includes('deskew')) p = (await deskewPage(p, { signal })).page;
  if (steps.includes('scale')) p = (await scaleText(p)).page;
  return p;
}

const pct = (k: number, n: number) => (n ? `${k}/${n} (${((100 * k) / n).toFixed(0)} %)` : '–');
const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : 0);

async function extraction(all: Item[]): Promise<void> {
  const chosen = all.filter((item, i) => item.kind !== 'sroie' || i % SCAN_STEP === 0);
  // `quick`: today against preparePage only, for a rerun after a change to the steps kept.
  const variants =
    mode === 'perspective'
      ? ['prepared', 'with perspective']
      : quick
        ? ['today', 'prepared']
        : ['today', 'prepared', ...KEPT.map((s) => `without ${s}`), ...TRIED.map((s) => `with ${s}`)];
  // What perspective correction does beyond the crop it replaces: pages warped, CPU of the step and of the whole preparation.
  type Fields = { total: boolean; date: boolean; merchant: boolean };
  const perspective: Array<{ item: Item; warped: boolean; stepMs: number; prepMs: number; paddle?: { prepared: Fields; perspective: Fields } }> = [];
  type Row = { item: Item; variant: string; total: boolean; date: boolean; merchant: boolean; inText: boolean; ocrMs: number; prepMs: number };
  const rows: Row[] = [];
  for (const item of chosen) {
    const page = await decode(item);
    const pages: Record<string, { image: Buffer; prepMs: number }> = { today: { image: page.image, prepMs: 0 } };
    const prepared = await cpuOf(() => preparePage(page, { signal }));
    pages.prepared = { image: prepared.result.page.image, prepMs: prepared.cpuMs };
    for (const variant of variants.filter((v) => v !== 'today' && v !== 'prepared')) {
      const [how, step] = variant.split(' ') as ['with' | 'without', Step];
      const steps = how === 'with' ? [...KEPT, step] : KEPT.filter((s) => s !== step);
      const withStep = await cpuOf(() => prepareWith(page, steps));
      pages[variant] = { image: withStep.result.image, prepMs: withStep.cpuMs };
    }
    const line: string[] = [];
    if (variants.includes('with perspective')) {
      const crop = await cpuOf(() => cropToReceipt(page));
      const straight = await cpuOf(() => straightenReceipt(page, { signal }));
      // Only warped pages differ between the two: PaddleOCR reads just those.
      const paddle = straight.result.warped
        ? { prepared: item.score(await paddleText(pages.prepared.image)), perspective: item.score(await paddleText(pages['with perspective']!.image)) }
        : undefined;
      perspective.push({ item, warped: straight.result.warped, stepMs: straight.cpuMs - crop.cpuMs, prepMs: pages['with perspective']!.prepMs - prepared.cpuMs, paddle });
      if (straight.result.warped) line.push('warped');
    }
    for (const variant of variants) {
      const { image, prepMs } = pages[variant]!;
      const result = await ocr(image);
      const s = item.score(result.text);
      rows.push({ item, variant, ...s, inText: totalInText(item.total, result.text), ocrMs: result.cpuMs, prepMs });
      line.push(`${variant}: ${s.total ? 'T' : '-'}${s.date ? 'D' : '-'}${s.merchant ? 'M' : '-'}${totalInText(item.total, result.text) ? '$' : '-'}`);
    }
    const p = prepared.result;
    console.log(`${path.basename(item.file)} [${item.kind} ${item.half}] rot ${p.rotated} skew ${p.skew} crop ${p.cropped} ${p.page.width}x${p.page.height} prep ${prepared.cpuMs.toFixed(0)} ms | ${line.join(' | ')}`);
  }
  for (const group of ['world', 'sroie'] as const) {
    for (const h of HALVES) {
      const inGroup = rows.filter((r) => (group === 'sroie') === (r.item.kind === 'sroie') && r.item.half === h);
      console.log(`\n${group} ${h} (${inGroup.length / variants.length} images)\n| variant | total | date | merchant | total in OCR text | OCR CPU p50 | prepare CPU p50 |`);
      console.log('| --- | --- | --- | --- | --- | --- | --- |');
      for (const variant of variants) {
        const v = inGroup.filter((r) => r.variant === variant);
        const c = (k: 'total' | 'date' | 'merchant' | 'inText') => pct(v.filter((r) => r[k]).length, v.length);
        const prep = variant === 'prepared' || variant === 'with perspective' ? `${median(v.map((r) => r.prepMs)).toFixed(0)} ms` : '';
        console.log(`| ${variant} | ${c('total')} | ${c('date')} | ${c('merchant')} | ${c('inText')} | ${median(v.map((r) => r.ocrMs)).toFixed(0)} ms | ${prep} |`);
      }
    }
  }
  for (const h of HALVES) {
    const m = perspective.filter((p) => p.item.half === h);
    if (!m.length) continue;
    const warped = m.filter((p) => p.warped);
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : 0);
    console.log(
      `perspective ${h}: warped ${warped.length}/${m.length} pages (photos ${warped.filter((p) => p.item.kind === 'photo').length}/${m.filter((p) => p.item.kind === 'photo').length});` +
        ` CPU over the crop alone: step ${mean(m.map((p) => p.stepMs)).toFixed(0)} ms mean (warped pages ${mean(warped.map((p) => p.stepMs)).toFixed(0)} ms),` +
        ` whole preparation ${mean(m.map((p) => p.prepMs)).toFixed(0)} ms mean (warped pages ${mean(warped.map((p) => p.prepMs)).toFixed(0)} ms)`,
    );
    if (warped.length) console.log(`  warped: ${warped.map((p) => path.basename(p.item.file)).join(' ')}`);
    const right = (variant: 'prepared' | 'perspective', k: keyof Fields) => warped.filter((p) => p.paddle![variant][k]).length;
    const fields = (variant: 'prepared' | 'perspective') => (['total', 'date', 'merchant'] as const).map((k) => `${k} ${right(variant, k)}`).join(', ');
    console.log(`  PaddleOCR on the ${warped.length} warped pages: prepared ${fields('prepared')}; with perspective ${fields('perspective')}`);
  }
  if (!variants.includes('today')) return;
  const scans = rows.filter((r) => r.item.kind === 'sroie' || r.item.kind === 'scan');
  const cost = (variant: string) => scans.filter((r) => r.variant === variant).reduce((a, r) => a + r.ocrMs + r.prepMs, 0);
  console.log(`\nscans (SROIE + world scans): CPU prepare + OCR / today's OCR = ${(cost('prepared') / cost('today')).toFixed(2)}×`);
}

/** Trial rotations: OCR a shrunk copy each way up and keep the most confident. */
async function trialRotation(page: PageImage): Promise<number> {
  let best = { rotate: 0, confidence: -1 };
  for (const rotate of [0, 90, 180, 270] as const) {
    const image = await sharp((await turnPage(page, rotate)).image)
      .resize({ width: TRIAL_SIDE, height: TRIAL_SIDE, fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const { confidence } = await ocr(image);
    if (confidence > best.confidence) best = { rotate, confidence };
  }
  return best.rotate;
}

async function orientation(all: Item[]): Promise<void> {
  type Row = { item: Item; turned: number; method: string; expected: number; got: number; cpuMs: number };
  const rows: Row[] = [];
  const guesses: { item: Item; expected: number; guess: OrientationGuess | undefined; landscape: boolean }[] = [];
  const scripts: string[] = [];
  for (const [index, item] of all.entries()) {
    // Crop and illumination come before orientation in preparePage: measure OSD on what it sees there.
    const lit = (await evenIllumination((await cropToReceipt(await decode(item))).page)).page;
    // Upright pages turned by the bench show how often a rotated upload is put right; one turn per
    // page for the costly trial rotations (chosen by the file's hash, the scans sampled), all four for OSD.
    const trialTurn = [0, 90, 180, 270][createHash('sha256').update(item.file).digest()[1]! % 4]!;
    for (const turned of [0, 90, 180, 270] as const) {
      const page = await turnPage(lit, turned);
      const expected = (item.rotated - turned + 360) % 360;
      const osd = await cpuOf(() => guessOrientation(page, { signal }));
      rows.push({ item, turned, method: 'osd', expected, got: chooseTurn(osd.result, page), cpuMs: osd.cpuMs });
      guesses.push({ item, expected, guess: osd.result, landscape: page.width > page.height });
      if (turned === 0) scripts.push(`${path.basename(item.file)} ${item.language}: ${osd.result?.script} ${osd.result?.scriptConfidence?.toFixed(2)}`);
      const sampled = item.kind !== 'sroie' || index % SCAN_STEP === 0;
      if (mode !== 'osd' && sampled && (turned === trialTurn || (turned === 0 && item.rotated !== 0))) {
        const trial = await cpuOf(() => trialRotation(page));
        rows.push({ item, turned, method: 'trial', expected, got: trial.result, cpuMs: trial.cpuMs });
      }
    }
    process.stdout.write('.');
  }
  console.log(`\nOSD scripts seen (upright pages):\n  ${scripts.join('\n  ')}`);
  const latin = scripts.filter((line) => !/ ja: /.test(line));
  const japanese = scripts.filter((line) => / ja: /.test(line));
  console.log(
    `script right: Latin ${latin.filter((l) => / ja: | Latin /.test(l)).length}/${latin.length}, Japanese ${japanese.filter((l) => /Japanese|Han|Hiragana|Katakana/.test(l)).length}/${japanese.length}`,
  );
  // Decision rules on the same OSD answers: a plain confidence bar, and one that trusts a quarter
  // turn more on a landscape page (receipts are long) and less on a portrait one.
  const rules: Record<string, (g: OrientationGuess | undefined, landscape: boolean) => number> = {};
  for (const bar of [0.5, 1, 1.5, 2, 3]) rules[`confidence ≥ ${bar}`] = (g) => (g && g.confidence >= bar ? g.rotate : 0);
  for (const [low, high, half] of [[0, 2, 1], [0.3, 2, 1], [0.5, 1.5, 1], [0, 2, 1.5], [0, 2, 2], [0, 2, 3], [0, 3, 2]] as const) {
    rules[`quarter turns: landscape ≥ ${low}, portrait ≥ ${high}; half turns ≥ ${half}`] = (g, landscape) => {
      if (!g) return 0;
      const bar = g.rotate === 90 || g.rotate === 270 ? (landscape ? low : high) : half;
      return g.confidence >= bar ? g.rotate : 0;
    };
  }
  for (const [name, rule] of Object.entries(rules)) {
    const line = (['tune', 'report'] as const).map((h) => {
      const m = guesses.filter((g) => g.item.half === h);
      const rotated = m.filter((g) => g.expected !== 0);
      const upright = m.filter((g) => g.expected === 0);
      return `${h}: put right ${pct(rotated.filter((g) => rule(g.guess, g.landscape) === g.expected).length, rotated.length)}, false ${pct(upright.filter((g) => rule(g.guess, g.landscape) !== 0).length, upright.length)}`;
    });
    console.log(`rule ${name} — ${line.join('; ')}`);
  }
  for (const method of ['osd', 'trial']) {
    for (const h of HALVES) {
      const m = rows.filter((r) => r.method === method && r.item.half === h);
      const upright = m.filter((r) => r.expected === 0);
      const rotated = m.filter((r) => r.expected !== 0);
      const natural = rotated.filter((r) => r.turned === 0);
      console.log(
        `${method} ${h}: rotated pages put right ${pct(rotated.filter((r) => r.got === r.expected).length, rotated.length)}` +
          ` (stored rotated in the world set: ${pct(natural.filter((r) => r.got === r.expected).length, natural.length)}),` +
          ` false rotations of upright pages ${pct(upright.filter((r) => r.got !== 0).length, upright.length)}` +
          ` (scans ${pct(upright.filter((r) => r.got !== 0 && r.item.kind === 'sroie').length, upright.filter((r) => r.item.kind === 'sroie').length)}),` +
          ` CPU p50 ${median(m.map((r) => r.cpuMs)).toFixed(0)} ms`,
      );
      const wrong = m.filter((r) => r.got !== r.expected).map((r) => `${path.basename(r.item.file)}@${r.turned}→${r.got}`);
      if (wrong.length) console.log(`  wrong: ${wrong.join(' ')}`);
    }
  }
}

const all = await items();
if (!all.length || !(await readdir(worldDir).catch(() => []))) throw new Error('no receipts under ../shared');
if (mode === 'orientation' || mode === 'osd' || mode === 'all') await orientation(all);
if (mode === 'extraction' || mode === 'perspective' || mode === 'all') await extraction(all);
await closeOrientationDetector();
await paddleOcr?.close();
if (ocrWorker) await (await ocrWorker).terminate();
