/** Types the service accepts, sniffed from their first bytes rather than trusted from the name. */
export const ACCEPTED_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/tiff', 'image/gif', 'application/pdf'] as const;
export type AcceptedMime = (typeof ACCEPTED_MIME_TYPES)[number];

/** The name people know each accepted type by; a type added above without one does not compile. */
const FILE_TYPE_NAMES: Record<AcceptedMime, string> = {
  'image/jpeg': 'JPG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'image/heic': 'HEIC',
  'image/tiff': 'TIFF',
  'image/gif': 'GIF',
  'application/pdf': 'PDF',
};

/** "JPG, PNG or PDF": the types' names for a sentence, so what a message lists is what is accepted. */
export function fileTypeList(types: readonly AcceptedMime[], conjunction: 'or' | 'and' = 'or'): string {
  const names = types.map((t) => FILE_TYPE_NAMES[t]);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`;
}

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Receipts are one or two pages; longer PDFs and multi-page TIFFs are read (and pictured for review) up to here. */
export const MAX_DOCUMENT_PAGES = 5;

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'heif']);

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

export function sniffMimeType(bytes: Uint8Array): AcceptedMime | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(bytes, 8, 12))) return 'image/heic';
  // Little- or big-endian TIFF, classic (42) or BigTIFF (43): what scanners write.
  if (bytes.length >= 4 && ['II*\0', 'MM\0*', 'II+\0', 'MM\0+'].includes(ascii(bytes, 0, 4))) return 'image/tiff';
  if (bytes.length >= 6 && ['GIF87a', 'GIF89a'].includes(ascii(bytes, 0, 6))) return 'image/gif';
  // PDF readers accept the header anywhere in the first KiB.
  if (ascii(bytes, 0, Math.min(bytes.length, 1024)).includes('%PDF-')) return 'application/pdf';
  return null;
}
