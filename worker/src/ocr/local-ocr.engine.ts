import sharp from 'sharp';
import { extractReceiptWithSources, type RecognizedDocument, type RecognizedLine } from '@receipts/common';
import { metrics, type Logger } from '@receipts/infra';
import { lowerImageThreads } from '../process/background-priority.js';
import { giveHeapHeadroom } from '../process/heap-headroom.js';
import { firstPassLanguages, mayBeOtherScript, retryLanguages } from './language.choice.js';
import { originalPoint, uprightTurn, type DecodedDocument, type PageImage, type PageLine, type PagePreparation, type PreparedPage } from '../page/page.types.js';
import type { OcrEngine, RecognizeHints } from './ocr-engine.js';
import { PaddleTimeoutError, type PaddleOcr } from './paddle-ocr.engine.js';
import { createPaddlePool } from './paddle-ocr.pool.js';
import { readingOrder } from './reading-order.js';
import { isBetterReading, mayBeTurned, needsSecondOpinion, type Reading } from './second-opinion.policy.js';
import { NativeTesseract } from '../tesseract/tesseract-native.reader.js';
import { TesseractPool } from '../tesseract/tesseract.pool.js';
import { TesseractTimeoutError, type TesseractBackend } from '../tesseract/tesseract.reader.js';

export interface LocalOcrOptions {
  /** Jobs recognising at once: tesseract reads this many pages at once. */
  concurrency: number;
  /** tesseract.js (the default, from npm) or the tesseract program installed on the host, both with the npm models. */
  tesseract?: TesseractBackend;
  /** Languages installed (each an `@tesseract.js-data/<lang>` package); each receipt gets the ones it needs. */
  langs: string[];
  /**
   * When PaddleOCR reads: never; as the second opinion on pages tesseract reads poorly
   * (`fallback`); first for photos and second for the rest (`photos`); first for every page,
   * tesseract giving the second opinion (`first`, the default); or alone (`always`).
   */
  paddle?: PaddleMode;
  /** How pages are cleaned up before reading (the pipeline gives document's clean-up). */
  preparation: PagePreparation;
  /** Orientation, crop, lighting and scale before reading; off only to measure what they bring. */
  cleanUp?: boolean;
  /**
   * Another engine (a vision model) asked about receipts both readers still read poorly, its
   * reading kept when it makes more sense of the receipt; its failure leaves the local reading
   * (logged here).
   */
  secondOpinion?: { engine: OcrEngine; log: Logger };
}

export type PaddleMode = 'never' | 'fallback' | 'photos' | 'first' | 'always';

/** A prepared document: every page cropped and lit evenly, upright where OSD was asked. */
interface PreparedDocument extends DecodedDocument {
  script?: string;
  /** A page was a photo: the receipt was cut out of its background. */
  photo?: boolean;
  /** The pages as prepared, to ask OSD later about those it has not seen. */
  prepared?: PreparedPage[];
  /** The pages as decoded, to read whole when a crop may have cut the receipt. */
  decoded?: PageImage[];
}

/** The cropped pages read whole instead (lit and turned as before); null when no page was cropped. */
async function uncroppedDocument(doc: PreparedDocument, preparation: PagePreparation, signal: AbortSignal): Promise<PreparedDocument | null> {
  if (!doc.prepared || !doc.decoded || !doc.prepared.some((p) => p.cropped)) return null;
  const pages: PageImage[] = [];
  for (const [n, page] of doc.prepared.entries()) {
    if (!page.cropped) {
      pages.push(page.page);
      continue;
    }
    const whole = await preparation.prepare(doc.decoded[n]!, { signal, orient: 'never', crop: false });
    pages.push(await preparation.turn(whole.page, page.rotated as 0 | 90 | 180 | 270));
  }
  return { ...doc, pages };
}

/** The document with every page turned upright by OSD; null when no page turned further. */
async function orientedDocument(doc: PreparedDocument, preparation: PagePreparation, signal: AbortSignal): Promise<PreparedDocument | null> {
  if (!doc.prepared || doc.prepared.every((p) => p.oriented)) return null;
  const prepared: PreparedPage[] = [];
  // Only a poor reading leads here, and the turned pages are read again and judged: a trial.
  for (const page of doc.prepared) prepared.push(await preparation.orient(page, { signal, trial: true }));
  // Nothing new turned (orient returns a page it has seen as it was): no second reading.
  if (prepared.every((p, n) => p.rotated === doc.prepared![n]!.rotated)) return null;
  return { ...doc, pages: prepared.map((p) => p.page), prepared, script: prepared.find((p) => p.script)?.script ?? doc.script };
}

interface EngineReading extends Reading {
  doc: RecognizedDocument;
  /** Which of `doc.lines` the rules read the total from. */
  totalLine?: number;
  /** The pages as read and each of `doc.lines`' box on them, in pixels (a PDF's text layer and a vision model's reading have none). */
  read?: { pages: PageImage[]; boxes: Array<PageLine['box']> };
}

/**
 * The local engine: two readers, tesseract (in the language the receipt needs; tesseract.js, or
 * the installed program where there is one) and PaddleOCR.
 * PaddleOCR reads first (photos, flatbed and thermal scans alike: on the shared sets' tune halves
 * it read more totals, dates and merchants right than tesseract, for less CPU on photos); when
 * its reading is poor (low confidence, no total, date or merchant, or arithmetic that does not
 * hold) tesseract gives a second opinion and whichever reading makes more sense of the receipt
 * is kept.
 */
export function createLocalOcrEngine(options: LocalOcrOptions): OcrEngine {
  giveHeapHeadroom();
  const tesseract = options.tesseract === 'native' ? new NativeTesseract(options.concurrency, options.langs) : new TesseractPool(options.concurrency, options.langs);
  const mode = options.paddle ?? 'first';
  let paddle: PaddleOcr | undefined;
  // A reader (ONNX sessions on a thread) per job slot, each loaded on the first page it is given.
  const paddleOcr = () => (paddle ??= createPaddlePool(options.concurrency));

  async function readWithTesseract(doc: PreparedDocument, hints: RecognizeHints, signal: AbortSignal): Promise<EngineReading> {
    const read = async (languages: string[]) => {
      const pages = await Promise.all(
        doc.pages.map((page) => tesseract.recognize(page.image, languages, signal).catch(nothingInTime)),
      );
      return reading(doc.pages, pages, `tesseract:${languages.join('+')}`, hints);
    };
    const languages = firstPassLanguages({ script: doc.script, currencyCode: hints.currencyCode }, options.langs);
    const first = await read(languages);
    const evidence = { languages, confidence: first.confidence, text: first.doc.content, script: doc.script };
    // A poor reading may be of another script: OSD on the first page says which, for far less than a pass in Japanese.
    if (!evidence.script && mayBeOtherScript(evidence, options.langs) && doc.pages[0]) evidence.script = await options.preparation.script(doc.pages[0], { signal });
    const retry = retryLanguages(evidence, options.langs);
    if (!retry) return first;
    signal.throwIfAborted();
    const again = await read(retry);
    const now = hints.now ?? new Date();
    return isBetterReading(again, first, now, true) ? again : first;
  }

  async function readWithPaddle(doc: PreparedDocument, hints: RecognizeHints, signal: AbortSignal): Promise<EngineReading> {
    const ocr = paddleOcr();
    const pages = [];
    for (const page of doc.pages) {
      pages.push(await ocr.recognizePage(page.image, signal).catch(nothingInTime));
    }
    return reading(doc.pages, pages, 'paddle', hints);
  }

  async function readLocally(doc: PreparedDocument, hints: RecognizeHints, signal: AbortSignal): Promise<EngineReading> {
    if (mode === 'never') return readWithTesseract(doc, hints, signal);
    if (mode === 'always') return readWithPaddle(doc, hints, signal);
    const paddleFirst = mode === 'first' || (mode === 'photos' && doc.photo === true);
    const [firstReader, secondReader] = paddleFirst ? [readWithPaddle, readWithTesseract] : [readWithTesseract, readWithPaddle];
    let first = await firstReader(doc, hints, signal);
    const now = hints.now ?? new Date();
    if (!needsSecondOpinion(first)) return first;
    // A poor reading may be of a page upside down or sideways: ask OSD, read the turned pages again.
    const oriented = mayBeTurned({ readBy: first.doc.readBy, confidence: first.confidence }) ? await orientedDocument(doc, options.preparation, signal) : null;
    if (oriented) {
      const again = await firstReader(oriented, hints, signal);
      if (isBetterReading(again, first, now, true)) [first, doc] = [again, oriented];
      if (!needsSecondOpinion(first)) return first;
    }
    signal.throwIfAborted();
    const second = await secondReader(doc, hints, signal);
    const best = isBetterReading(second, first, now, false) ? second : first;
    if (!paddleFirst || !needsSecondOpinion(best)) return best;
    // Still poor: the crop may have cut the receipt (the brightest paper was only its lit part, or a
    // lit patch of table). PaddleOCR finds text on a whole frame, background and all.
    const whole = await uncroppedDocument(doc, options.preparation, signal);
    if (!whole) return best;
    const again = await readWithPaddle(whole, hints, signal);
    return isBetterReading(again, best, now, best === first) ? again : best;
  }

  /**
   * A total the rules could not confirm, read again by the other reader on its line alone: the
   * line's text as it read it goes with the line (`readAgain`), and the rules take a total label's
   * amount both readers read alike, the items not saying otherwise (confidence.rule.ts). On the
   * tune halves 22 of 22 totals so taken were right; the 29 others asked stay doubted.
   */
  async function readTotalAgain(first: EngineReading, hints: RecognizeHints, signal: AbortSignal): Promise<EngineReading> {
    if (!first.read || !first.doubts.some((d) => d.code === 'totalUnconfirmed')) return first;
    const index = first.totalLine;
    const line = index === undefined ? undefined : first.doc.lines?.[index];
    if (index === undefined || !line) return first;
    const withReadAgain = (text: string): RecognizedDocument => ({ ...first.doc, lines: first.doc.lines!.map((l, i) => (i === index ? { ...l, readAgain: text } : l)) });
    // Only where the same reading would settle the doubt (a total label's line, nothing contradicting it).
    if (extracted(withReadAgain(line.text), hints).doubts.some((d) => d.code === 'totalUnconfirmed')) return first;
    const crop = await lineCrop(first.read.pages[line.page]!, first.read.boxes[index]!);
    signal.throwIfAborted();
    const again = first.doc.readBy?.startsWith('tesseract')
      ? await paddleOcr().recognizePage(crop, signal).catch(nothingInTime)
      : await tesseract.recognize(crop, firstPassLanguages({ currencyCode: hints.currencyCode }, options.langs), signal).catch(nothingInTime);
    const doc = withReadAgain(again.lines.map((a) => a.text).join(' '));
    return { ...first, doc, ...extracted(doc, hints) };
  }

  return {
    name: 'local',
    async prepare(doc, signal) {
      if (doc.textLayer || options.cleanUp === false) return doc;
      const prepared = [];
      // With two readers, OSD only for pages that look sideways now; the others only if their reading is poor.
      const orient = mode === 'never' || mode === 'always' ? 'always' : 'landscape';
      for (const page of doc.pages) prepared.push(await options.preparation.prepare(page, { signal, orient }));
      // Beside an api in one process, the clean-up's threads go below it (the next documents' clean-up).
      lowerImageThreads();
      const script = prepared.find((p) => p.script)?.script;
      return { ...doc, pages: prepared.map((p) => p.page), prepared, decoded: doc.pages, script, photo: prepared.some((p) => p.cropped) } satisfies PreparedDocument;
    },
    async recognize(doc: PreparedDocument, signal, hints = {}) {
      if (doc.textLayer) return textLayerDocument(doc);
      const local = await readTotalAgain(await readLocally(doc, hints, signal), hints, signal);
      if (!options.secondOpinion || !needsSecondOpinion(local)) return local.doc;
      return (await askSecondOpinion(options.secondOpinion, doc, local, hints, signal)).doc;
    },
    async warmUp() {
      const blank = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ffffff' } }).png().toBuffer();
      const signal = new AbortController().signal;
      // OSD's tesseract.js worker (1.7 CPU-s to start) starts on the first page a clean-up asks
      // which way up it is: a blank page, asked the way every page is, starts it.
      if (options.cleanUp !== false) await options.preparation.script({ image: blank, width: 64, height: 64 }, { signal });
      // PaddleOCR's sessions load with the first page a reader reads: a blank page at once for each job slot loads every reader's.
      if (mode !== 'never') await Promise.all(Array.from({ length: options.concurrency }, () => paddleOcr().recognizePage(blank, signal)));
    },
    async close() {
      await Promise.allSettled([tesseract.close(), paddle?.close(), options.preparation.close()]);
    },
  };
}

/**
 * The other engine's reading of the pages as decoded (in colour, uncropped: a vision model reads
 * a photo better than our clean-up of it), kept only when it makes more sense of the receipt
 * than the local one. It fails quietly for the upload, loudly for the operator: the local
 * reading stands, the failure is logged and counted.
 */
async function askSecondOpinion(
  { engine, log }: NonNullable<LocalOcrOptions['secondOpinion']>,
  doc: PreparedDocument,
  local: EngineReading,
  hints: RecognizeHints,
  signal: AbortSignal,
): Promise<EngineReading> {
  const now = hints.now ?? new Date();
  try {
    const prepared = await engine.prepare({ ...doc, pages: doc.decoded ?? doc.pages }, signal);
    const recognized = await engine.recognize(prepared, signal, hints);
    // Confidences of different readers are not on one scale; the receipt's sense decides (below).
    const reading: EngineReading = { doc: recognized, confidence: 1, ...extracted(recognized, hints) };
    const kept = isBetterReading(reading, local, now, false);
    metrics.vlmSecondOpinions.inc({ outcome: kept ? 'kept' : 'discarded' });
    return kept ? reading : local;
  } catch (err) {
    if (signal.aborted) throw err;
    metrics.vlmSecondOpinions.inc({ outcome: 'failed' });
    log.warn({ err, readBy: local.doc.readBy }, 'second opinion failed; the local reading stands');
    return local;
  }
}

/** A page or line a reader cannot finish in time reads as nothing: the other reader decides, or the doubt it was asked about stays. */
function nothingInTime(err: unknown): { lines: PageLine[]; confidence: number } {
  if (err instanceof TesseractTimeoutError || err instanceof PaddleTimeoutError) return { lines: [], confidence: 0 };
  throw err;
}

function meanConfidence(pages: Array<{ confidence: number }>): number {
  return pages.length ? pages.reduce((s, p) => s + p.confidence, 0) / pages.length : 0;
}

/** An engine's page lines as a recognised document, boxes placed on the original pages. */
function reading(images: PageImage[], pages: Array<{ lines: PageLine[]; confidence: number }>, readBy: string, hints: RecognizeHints): EngineReading {
  const ordered = pages.flatMap((page, n) => readingOrder(page.lines).map((line) => ({ n, line })));
  const lines: RecognizedLine[] = ordered.map(({ n, line }) => ({ page: n, text: line.text, confidence: line.confidence, box: boxOnOriginal(images[n]!, line.box) }));
  const confidence = meanConfidence(pages);
  const pageTurns = images.map(uprightTurn);
  const doc: RecognizedDocument = {
    content: lines.map((l) => l.text).join('\n'),
    documents: [{ confidence, fields: {} }],
    lines,
    readBy,
    ...(pageTurns.some((t) => t !== 0) ? { pageTurns } : {}),
  };
  return { doc, confidence, ...extracted(doc, hints), read: { pages: images, boxes: ordered.map(({ line }) => line.box) } };
}

/**
 * Paper around a line's box, in line heights: some above and below for the glyphs' edges, less than
 * the gap to the next line (receipts print lines close: a wider cut had the reader read them too);
 * more beside it.
 */
const LINE_MARGIN = { vertical: 0.2, horizontal: 1 };
/** A line crop is scaled up to at least this height: a reader finds small print at this size. */
const LINE_CROP_HEIGHT = 64;

/** A line's box cut from its page with a little paper around it, greyscale, scaled up when small. */
export async function lineCrop(page: PageImage, box: PageLine['box']): Promise<Buffer> {
  const dy = Math.max(2, Math.round(box.height * LINE_MARGIN.vertical));
  const dx = Math.max(4, Math.round(box.height * LINE_MARGIN.horizontal));
  const left = Math.max(0, Math.floor(box.x - dx));
  const top = Math.max(0, Math.floor(box.y - dy));
  const width = Math.min(page.width, Math.ceil(box.x + box.width + dx)) - left;
  const height = Math.min(page.height, Math.ceil(box.y + box.height + dy)) - top;
  const crop = sharp(page.image).extract({ left, top, width, height }).greyscale();
  return (height < LINE_CROP_HEIGHT ? crop.resize({ height: LINE_CROP_HEIGHT }) : crop).png().toBuffer();
}

/** What the rules make of a reading: the receipt, their doubts about its key fields and the total's line. */
function extracted(doc: RecognizedDocument, hints: RecognizeHints): Pick<EngineReading, 'receipt' | 'doubts' | 'totalLine'> {
  const { receipt, doubts, sources } = extractReceiptWithSources(doc, { currencyCode: hints.currencyCode, now: hints.now });
  return { receipt, doubts, totalLine: sources.total };
}

/** The box of a prepared page's pixels on the original page: the bounds of its four mapped corners. */
export function boxOnOriginal(page: PageImage, box: PageLine['box']): RecognizedLine['box'] {
  const corners = [
    originalPoint(page, box.x, box.y),
    originalPoint(page, box.x + box.width, box.y),
    originalPoint(page, box.x, box.y + box.height),
    originalPoint(page, box.x + box.width, box.y + box.height),
  ];
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const xs = corners.map(([x]) => clamp(x));
  const ys = corners.map(([, y]) => clamp(y));
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** A PDF's own text: certain, with the boxes pdfjs gave each line. */
function textLayerDocument(doc: DecodedDocument): RecognizedDocument {
  // pdfjs numbers pages from 1; a recognised line's page counts from 0, as the page pictures do.
  const lines: RecognizedLine[] | undefined = doc.textLines?.map((l) => ({ ...l, page: l.page - 1, confidence: 1 }));
  return { content: doc.textLayer!, documents: [{ confidence: 1, fields: {} }], lines, readBy: 'pdf-text' };
}
