/**
 * Which tesseract languages read a receipt. Each language loaded costs time on every page, so a
 * receipt gets the one its evidence points to, not every language installed.
 */
import { OCR_MARKERS } from '@receipts/common';

/** Scripts (tesseract OSD names) whose receipts need their own model. */
const SCRIPT_LANGUAGE: Record<string, string> = { Japanese: 'jpn', Han: 'jpn', Katakana: 'jpn', Hiragana: 'jpn' };
const CURRENCY_LANGUAGE: Record<string, string> = { JPY: 'jpn' };

/** Below this mean confidence an English reading of a page is likely another script altogether. */
export const OTHER_SCRIPT_CONFIDENCE = 0.45;

/** The first pass: a script seen on the page or the user's currency can ask for a model; English otherwise. */
export function firstPassLanguages(evidence: { script?: string; currencyCode?: string }, installed: readonly string[]): string[] {
  const wanted = (evidence.script && SCRIPT_LANGUAGE[evidence.script]) || (evidence.currencyCode && CURRENCY_LANGUAGE[evidence.currencyCode]);
  return wanted && installed.includes(wanted) ? [wanted] : installed.includes('eng') ? ['eng'] : [installed[0]!];
}

/** The language whose receipt words (its keyword table's OCR markers) the text holds most of (at least two), if any. */
export function detectLanguage(text: string): string | undefined {
  let best: string | undefined;
  let bestCount = 1;
  for (const { model, pattern } of OCR_MARKERS) {
    const count = text.match(pattern)?.length ?? 0;
    if (count > bestCount) [best, bestCount] = [model, count];
  }
  return best;
}

/**
 * An English reading so poor the page may be in another script. Worth asking OSD which script it
 * sees before a second pass: on a faded Latin scan, reading again in Japanese cost 1.7 CPU-s and
 * found nothing, where OSD costs a tenth of that.
 */
export function mayBeOtherScript(first: { languages: readonly string[]; confidence: number }, installed: readonly string[]): boolean {
  return first.confidence < OTHER_SCRIPT_CONFIDENCE && Object.values(SCRIPT_LANGUAGE).some((l) => installed.includes(l) && !first.languages.includes(l));
}

/**
 * A second pass in another model, when the first reading says it was the wrong one: a reading so
 * poor the page may be in another script and OSD sees one that has its model (`script`), or
 * text whose words are another language's. Null when the first pass stands.
 */
export function retryLanguages(
  first: { languages: readonly string[]; confidence: number; text: string; script?: string },
  installed: readonly string[],
): string[] | null {
  const scriptModel = first.script && SCRIPT_LANGUAGE[first.script];
  if (scriptModel && first.confidence < OTHER_SCRIPT_CONFIDENCE && installed.includes(scriptModel) && !first.languages.includes(scriptModel)) return [scriptModel];
  const language = detectLanguage(first.text);
  return language && !first.languages.includes(language) && installed.includes(language) ? [language] : null;
}
