import { formatDay } from './accounting-presets.js';
import { plainAmount } from './money-format.rule.js';

/** The folder of the export pack that holds the originals. */
export const PACK_ORIGINALS_DIR = 'originals';
/** The note of the export pack listing the originals it could not include. */
export const PACK_MISSING_NOTE = 'missing-originals.txt';

/** Extensions by stored type: the type was sniffed from the bytes at upload, the name the user gave may say anything. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'image/tiff': 'tiff',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
};

const MERCHANT_MAX = 60;

/**
 * A merchant as part of a file name on any system: NFC, no path or reserved characters
 * (`/ \ : * ? " < > |`, control characters), runs of spaces and underscores as one `-`, no
 * leading or trailing dots or dashes, at most 60 characters (whole characters, never half a
 * UTF-16 pair).
 */
export function fileNamePart(text: string | null | undefined, fallback: string): string {
  const cleaned = (text ?? '')
    .normalize('NFC')
    .replace(/[/\\:*?"<>|\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/[\s_]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[.\-]+|[.\-]+$/g, '');
  const cut = [...cleaned].slice(0, MERCHANT_MAX).join('').replace(/[.\-]+$/, '');
  return cut || fallback;
}

/** The pack's name of an original: `YYYY-MM-DD_merchant_total.ext` (`undated`, `unknown`, `no-total` for what the receipt lacks). */
export function originalFileName(original: {
  date: string | null;
  merchantName: string | null;
  total: number | null;
  currency: string;
  mimeType: string;
}): string {
  const day = formatDay(original.date, 'YYYY-MM-DD') ?? 'undated';
  const total = typeof original.total === 'number' ? plainAmount(original.total, original.currency) : 'no-total';
  return `${day}_${fileNamePart(original.merchantName, 'unknown')}_${total}.${EXTENSIONS[original.mimeType] ?? 'bin'}`;
}

/**
 * Hands out names unique within the pack, compared without case (as Windows and macOS do):
 * a name already given gets `_2`, `_3`, … before its extension.
 */
export function uniqueNames(): (name: string) => string {
  const taken = new Set<string>();
  return (name) => {
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem}_${n}${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  };
}
