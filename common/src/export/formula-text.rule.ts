/**
 * Text a spreadsheet would run as a formula (CSV injection): it starts with `= + - @` (or their
 * full-width forms, which Excel reads the same in East Asian locales), also behind spaces, which
 * spreadsheets skip when they guess a cell's type, or with a tab or a line break.
 */
const FORMULA_START = /^[\t\r\n]|^\s*[=+\-@＝＋－＠]/;
/** The run of characters `drop` takes off the front. */
const LEADING_FORMULA = /^[\s=+\-@＝＋－＠]+/;
/** A signed amount (`-10.40`) is a number to a spreadsheet, not a formula: it stays as it is. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Every text field of every import file passes here, so none can start a formula. `apostrophe`
 * puts a `'` in front, which makes it text (OWASP's advice); `drop` takes the formula characters
 * off the front, for a field whose character set has no apostrophe (DATEV's Belegfeld 1).
 */
export function formulaSafe(text: string, how: 'apostrophe' | 'drop' = 'apostrophe'): string {
  if (!FORMULA_START.test(text) || PLAIN_NUMBER.test(text)) return text;
  return how === 'apostrophe' ? `'${text}` : text.replace(LEADING_FORMULA, '');
}
