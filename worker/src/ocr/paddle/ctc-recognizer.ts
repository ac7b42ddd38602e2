import { type InferenceSession, Tensor } from 'onnxruntime-node';
import type { RgbImage } from './db-detector.js';
import type { RotatedBox } from './rotated-box.js';

export interface RecognizedText {
  text: string;
  /** Mean of the emitted characters' probabilities, 0..1 (0 for no text). */
  confidence: number;
}

export interface RecognizerSettings {
  /** Widest crop fed to the model; longer lines are squeezed into it. */
  maxWidth: number;
}

const HEIGHT = 48;
/** An ink-free gap this wide (in heights of the line's band of ink) between two characters is a space. */
const SPACE_GAP = 0.4;

/**
 * The model's classes: 0 is the CTC blank, then the dictionary's keys in order, then a space
 * when the output has room for one (PP-OCR's use_space_char).
 */
export function charsetFor(keysFile: string, outputSize: number): string[] {
  const keys = keysFile.split(/\r?\n/);
  if (keys[keys.length - 1] === '') keys.pop();
  // Full-width digits and punctuation read as their ASCII forms, so the spacing rules see them.
  keys.forEach((key, i) => (keys[i] = key.normalize('NFKC')));
  if (outputSize === keys.length + 2) return ['', ...keys, ' '];
  if (outputSize === keys.length + 1) return ['', ...keys];
  throw new Error(`The recognition model has ${outputSize} classes; its dictionary has ${keys.length} keys`);
}

/**
 * Reads each box's text, in the order of `boxes`. One box per run, each as wide as its text:
 * batches of similar widths measured slower on one thread (8 boxes: +30 % CPU, 24: +170 %),
 * and padding short words to PaddleOCR's 320 cost 25 % more CPU for no more totals or dates found.
 */
export async function recognizeBoxes(
  session: InferenceSession,
  charset: readonly string[],
  image: RgbImage,
  boxes: readonly RotatedBox[],
  settings: RecognizerSettings,
  signal: AbortSignal,
): Promise<RecognizedText[]> {
  const results: RecognizedText[] = [];
  for (const box of boxes) {
    signal.throwIfAborted();
    const width = Math.max(HEIGHT / 3, Math.min(settings.maxWidth, Math.round((HEIGHT * box.width) / Math.max(1, box.height))));
    const input = new Float32Array(3 * HEIGHT * width);
    sampleCrop(image, box, width, input);
    const feeds = { [session.inputNames[0]!]: new Tensor('float32', input, [1, 3, HEIGHT, width]) };
    const output = (await session.run(feeds))[session.outputNames[0]!]!;
    const [, steps, classes] = output.dims as [number, number, number];
    if (classes !== charset.length) throw new Error(`The recognition model gave ${classes} classes, expected ${charset.length}`);
    results.push(decode(output.data as Float32Array, steps, classes, charset, blankColumns(input, width), width / steps));
    // Back to the event loop now and then: a run blocks the thread it is on.
    if (results.length % 8 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return results;
}

/**
 * Samples the (rotated) box from the image into `out` as a 3 × 48 × `width` tensor,
 * normalised as PP-OCR rec expects ((x / 255 − 0.5) / 0.5).
 */
function sampleCrop(image: RgbImage, box: RotatedBox, width: number, out: Float32Array): void {
  const cos = Math.cos(box.angle);
  const sin = Math.sin(box.angle);
  const stepU = box.width / width;
  const stepV = box.height / HEIGHT;
  // Averages a few samples per output pixel when shrinking, so thin strokes are not skipped.
  const subU = Math.min(4, Math.max(1, Math.ceil(stepU)));
  const subV = Math.min(4, Math.max(1, Math.ceil(stepV)));
  const samples = subU * subV;
  const plane = HEIGHT * width;
  const { data, width: iw, height: ih } = image;
  const rgb = [0, 0, 0];
  for (let oy = 0; oy < HEIGHT; oy++) {
    for (let ox = 0; ox < width; ox++) {
      rgb[0] = rgb[1] = rgb[2] = 0;
      for (let sy = 0; sy < subV; sy++) {
        const v = (oy + (sy + 0.5) / subV) * stepV - box.height / 2;
        for (let sx = 0; sx < subU; sx++) {
          const u = (ox + (sx + 0.5) / subU) * stepU - box.width / 2;
          // Bilinear, with the edge pixels repeated outside the image.
          const x = Math.min(iw - 1, Math.max(0, box.cx + u * cos - v * sin - 0.5));
          const y = Math.min(ih - 1, Math.max(0, box.cy + u * sin + v * cos - 0.5));
          const x0 = Math.floor(x), y0 = Math.floor(y);
          const x1 = Math.min(iw - 1, x0 + 1), y1 = Math.min(ih - 1, y0 + 1);
          const fx = x - x0, fy = y - y0;
          const p00 = (y0 * iw + x0) * 3, p01 = (y0 * iw + x1) * 3, p10 = (y1 * iw + x0) * 3, p11 = (y1 * iw + x1) * 3;
          for (let c = 0; c < 3; c++) {
            const top = data[p00 + c]! + (data[p01 + c]! - data[p00 + c]!) * fx;
            const bottom = data[p10 + c]! + (data[p11 + c]! - data[p10 + c]!) * fx;
            rgb[c]! += top + (bottom - top) * fy;
          }
        }
      }
      for (let c = 0; c < 3; c++) out[c * plane + oy * width + ox] = rgb[c]! / samples / 127.5 - 1;
    }
  }
}

/**
 * Which of the crop's columns hold no ink within the line's band of rows, and that band's height:
 * ink is darker than halfway between the crop's light and dark ends. Low contrast: none is blank.
 */
function blankColumns(input: Float32Array, width: number): { blank: Uint8Array; inkHeight: number } {
  const plane = HEIGHT * width;
  const gray = new Float32Array(plane);
  for (let o = 0; o < plane; o++) gray[o] = (input[o]! + input[plane + o]! + input[2 * plane + o]!) / 3;
  const values = Float32Array.from(gray);
  const dark = kthSmallest(values, Math.floor(values.length * 0.05));
  const light = kthSmallest(values, Math.floor(values.length * 0.95));
  const blank = new Uint8Array(width);
  if (light - dark < 0.25) return { blank, inkHeight: HEIGHT };
  const threshold = (dark + light) / 2;
  // The line's own band of rows: out from the densest row near the middle while rows stay
  // inky; the lines above and below, which the grown box takes in too, lie past a paler gap.
  const counts = new Array<number>(HEIGHT).fill(0);
  for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < width; x++) if (gray[y * width + x]! < threshold) counts[y]!++;
  let densest = HEIGHT / 2;
  for (let y = HEIGHT / 4; y < (3 * HEIGHT) / 4; y++) if (counts[y]! > counts[densest]!) densest = y;
  if (counts[densest]! === 0) return { blank, inkHeight: HEIGHT };
  const floor = 0.2 * counts[densest]!;
  let top = densest;
  let bottom = densest;
  while (top > 0 && counts[top - 1]! >= floor) top--;
  while (bottom < HEIGHT - 1 && counts[bottom + 1]! >= floor) bottom++;
  for (let x = 0; x < width; x++) {
    let ink = false;
    for (let y = top; y <= bottom && !ink; y++) ink = gray[y * width + x]! < threshold;
    blank[x] = ink ? 0 : 1;
  }
  return { blank, inkHeight: bottom - top + 1 };
}

/**
 * The k-th smallest of `values` (from 0), reordering them: quickselect. Sorting each crop for its
 * two percentiles was a quarter of the recogniser's own (non-ONNX) time.
 */
export function kthSmallest(values: Float32Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i++] = values[j]!;
        values[j--] = swap;
      }
    }
    // [lo, j] holds values ≤ pivot, [i, hi] values ≥ pivot, anything between equals it.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k]!;
  }
  return values[k]!;
}

const DIGIT = /\p{Nd}/u;
/** Separators inside numbers, dates and times ("12.34", "2024-03-18", "12:30"). */
const IN_NUMBER = /^[-/.,:]$/;
/** Punctuation that clings to the word before it, and what clings to the word after it. */
const CLINGS_LEFT = /^[.,:;!?%)\]]$/;
const CLINGS_RIGHT = /^[([$€£¥₹]$/;

/**
 * CTC greedy decoding: the best class per time step, repeats merged, blanks dropped, and
 * confidence the mean probability of the characters kept. PP-OCR seldom emits spaces, so an
 * ink-free gap between two characters wider than SPACE_GAP becomes one: twice that between two
 * digits, and never inside a number, date or time or before a full stop (in monospaced print
 * a "1", "-" or "." leaves wide gaps beside it).
 */
function decode(
  probs: Float32Array,
  steps: number,
  classes: number,
  charset: readonly string[],
  columns: { blank: Uint8Array; inkHeight: number },
  columnsPerStep: number,
): RecognizedText {
  const chars: Array<{ char: string; step: number; prob: number }> = [];
  let previous = 0;
  for (let t = 0; t < steps; t++) {
    let best = 0;
    let bestProb = -1;
    for (let k = 0, o = t * classes; k < classes; k++, o++) {
      if (probs[o]! > bestProb) (bestProb = probs[o]!), (best = k);
    }
    if (best !== 0 && best !== previous) chars.push({ char: charset[best]!, step: t, prob: bestProb });
    previous = best;
  }
  if (chars.length === 0) return { text: '', confidence: 0 };
  const minGap = SPACE_GAP * columns.inkHeight;
  let text = chars[0]!.char;
  for (let i = 1; i < chars.length; i++) {
    const before = chars[i - 1]!.char;
    const after = chars[i]!.char;
    const digits = DIGIT.test(before) && DIGIT.test(after);
    const joined =
      before === ' ' ||
      after === ' ' ||
      CLINGS_LEFT.test(after) ||
      CLINGS_RIGHT.test(before) ||
      (DIGIT.test(before) && IN_NUMBER.test(after)) ||
      (IN_NUMBER.test(before) && DIGIT.test(after));
    if (!joined) {
      const from = Math.floor((chars[i - 1]!.step + 0.5) * columnsPerStep);
      const to = Math.min(columns.blank.length, Math.ceil((chars[i]!.step + 0.5) * columnsPerStep));
      let run = 0;
      let longest = 0;
      for (let x = from; x < to; x++) longest = Math.max(longest, (run = columns.blank[x] ? run + 1 : 0));
      if (longest >= (digits ? 2 : 1) * minGap) text += ' ';
    }
    text += after;
  }
  return { text, confidence: chars.reduce((sum, c) => sum + c.prob, 0) / chars.length };
}
