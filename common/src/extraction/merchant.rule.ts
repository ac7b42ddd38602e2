import type { RecognizedField } from '../recognized-document.js';

export const MERCHANT_CONFIDENCE = 0.8;
const SKIPPED_PREFIXES = /^(receipt|official|sales|vat|invoice)/i;
/** Words that end or mark a business name anywhere in the world. */
const BUSINESS_WORDS =
  /\b(sdn\.?\s*bhd|s\/b|bhd|berhad|enterprise|trading|ltd|limited|llc|inc|corp(oration)?|co\.|company|gmbh|pty|plc|pte|restoran|restaurant|kedai|syarikat|perniagaan|hardware|stationery|bakery|bakeries|cafe|mart|market|store|shop|supermarket|pharmacy|florist|pizza)\b/i;

/** Words that begin the legal-form tail of a name printed on a line of its own. */
const LEGAL_FORM_START = /^(co\.|company\b|sdn\b|s\/b\b|bhd\b|berhad\b|ltd\b|limited\b|inc\b|llc\b|gmbh\b|pty\b|pte\b|plc\b|corp\b|enterprise\b|trading\b|\(m\))/i;
const OWNED_BY = /^(owned|own|operated|managed)\s*by\s*:?\s*/i;

/** Tidies a name line: OCR edge noise, registration numbers like (126926-H), trailing punctuation. */
export function cleanMerchantLine(line: string): string {
  return line
    .replace(/[{[]/g, '(')
    .replace(/[}\]]/g, ')')
    .replace(OWNED_BY, '')
    .replace(/\(?\s*co\.?\s*(no|reg)\.?\s*[:.]?\s*\(?\s*[\dA-Z-]*\d[\dA-Z-]*\s*\)?/gi, ' ')
    .replace(/\(\s*[\dA-Z]{0,3}\d{3,}[^)]{0,4}\)/gi, ' ')
    .replace(/\(\s*[\dA-Z]{0,3}\d{4,}\S*$/i, ' ')
    .replace(/\b(co\.?\s*)?(reg|gst|company)\.?\s*(no|id)?\.?\s*[:.]?\s*[\dA-Z-]{5,}.*$/i, ' ')
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9.)]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Spec §5: 3–50 characters, letters (and the punctuation of names), not starting with a digit or a skipped word. */
export function isNameLike(line: string, allowLeadingDigit = false): boolean {
  if (line.length < 3 || line.length > 50 || SKIPPED_PREFIXES.test(line)) return false;
  if (/^\d/.test(line) && !allowLeadingDigit) return false;
  const letters = line.replace(/[^A-Za-z]/g, '').length;
  // Name punctuation (. & ' ( ) - /) is neutral; digits and stray symbols count against.
  const others = line.replace(/[A-Za-z\s.&'’()\-\/]/g, '').length;
  return letters >= 3 && /^[A-Za-z0-9 &.'’,()\-\/@]+$/.test(line) && letters / (letters + others) >= 0.6;
}

/** A name line of the receipt's header: mostly upper-case words, few stray characters. */
function nameScore(line: string, index: number): number {
  let score = 0;
  if (BUSINESS_WORDS.test(line)) score += 3;
  const letters = line.replace(/[^A-Za-z]/g, '');
  if (letters.length > 0 && letters === letters.toUpperCase()) score += 1;
  const words = line.split(' ');
  if (words.filter((w) => w.length === 1 && !/[&A-Z]/.test(w)).length > 1) score -= 2;
  return score - index * 0.25;
}

/**
 * The merchant: the service's MerchantName at confidence 0.8 or more; otherwise guessed from the
 * first lines — a line naming a business wins, else the first name-like line of the first 5.
 */
export function findMerchant(field: RecognizedField | undefined, lines: readonly string[]): { name: string; confidence: number } | null {
  const fromService = typeof field?.value === 'string' ? field.value : field?.content;
  if (fromService && (field?.confidence ?? 0) >= MERCHANT_CONFIDENCE) return { name: fromService.trim(), confidence: field!.confidence! };
  const raw = lines.slice(0, 8);
  const head = raw.map(cleanMerchantLine);
  let best: { index: number; score: number } | null = null;
  head.forEach((line, i) => {
    // A business name may start with a number ("99 Speed Mart"); the spec's fallback may not.
    if (!BUSINESS_WORDS.test(line) || !isNameLike(line, true)) return;
    const score = nameScore(line, i);
    if (!best || score > best.score) best = { index: i, score };
  });
  if (!best) {
    const fallback = head.slice(0, 5).find((l) => isNameLike(l));
    return fallback ? { name: fallback, confidence: 0.5 } : null;
  }
  return { name: joinNameLines(raw, head, (best as { index: number }).index), confidence: 0.7 };
}

/**
 * Names printed over two or three lines: a legal-form tail on its own line ("CO. (M) SDN BHD")
 * joins the line above; an open parenthesis or a legal-form start on the next line joins it.
 */
function joinNameLines(raw: readonly string[], head: readonly string[], index: number): string {
  let name = head[index]!;
  const above = head[index - 1];
  if (LEGAL_FORM_START.test(name) && above && isNameLike(above, true) && !OWNED_BY.test(raw[index]!.trim())) {
    name = `${above} ${name}`;
  }
  for (let next = index + 1; next < Math.min(head.length, index + 3); next++) {
    const line = head[next]!;
    const open = (name.match(/\(/g) ?? []).length > (name.match(/\)/g) ?? []).length;
    if (!(open || LEGAL_FORM_START.test(line)) || !/[A-Za-z]{2}/.test(line) || /\d{3,}/.test(line)) break;
    name = `${name} ${line}`;
  }
  return name.replace(/\s+/g, ' ').trim();
}
