/** Spec §5 workbook rules and the spec §8 texts of their errors. */
export const SHEET_NAME_MAX = 31;
export const CELL_TEXT_MAX = 32767;
const ILLEGAL_SHEET_CHARS = /[:\\/?*[\]]/;

export const WORKBOOK_ERRORS = {
  empty: 'Workbook is empty',
  duplicate: 'Duplicate Sheet Name',
  tooLong: 'Sheet names cannot exceed 31 chars',
  illegal: 'Sheet name cannot contain : \\ / ? * [ ]',
  textTooLong: 'Text length must not exceed 32767 characters',
} as const;

export class WorkbookError extends Error {
  override name = 'WorkbookError';
}

/** Checks the names of a workbook's sheets, in order. */
export function validateSheetNames(names: readonly string[]): void {
  if (names.length === 0) throw new WorkbookError(WORKBOOK_ERRORS.empty);
  const seen = new Set<string>();
  for (const name of names) {
    if (name.length === 0 || name.length > SHEET_NAME_MAX) throw new WorkbookError(WORKBOOK_ERRORS.tooLong);
    if (ILLEGAL_SHEET_CHARS.test(name)) throw new WorkbookError(WORKBOOK_ERRORS.illegal);
    // Excel compares sheet names case-insensitively.
    const key = name.toLowerCase();
    if (seen.has(key)) throw new WorkbookError(WORKBOOK_ERRORS.duplicate);
    seen.add(key);
  }
}

/** Text longer than a cell holds is cut (with an ellipsis) rather than failing the whole export. */
export function fitCellText(text: string): string {
  return text.length <= CELL_TEXT_MAX ? text : `${text.slice(0, CELL_TEXT_MAX - 3)}...`;
}

/** The same check, strict: for callers that must refuse rather than cut. */
export function assertCellText(text: string): void {
  if (text.length > CELL_TEXT_MAX) throw new WorkbookError(WORKBOOK_ERRORS.textTooLong);
}
