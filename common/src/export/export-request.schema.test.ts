import { describe, expect, it } from 'vitest';
import { EXPORT_ERRORS, exportRequestSchema, sheetNamesOf } from './export-request.schema.js';
import { WORKBOOK_ERRORS } from './workbook.rules.js';

const ID = '6f1c2a52-3b7e-4d55-9a1e-0c2f4b8d9e01';
const firstError = (input: unknown) => {
  const result = exportRequestSchema.safeParse(input);
  return result.success ? null : result.error.issues[0]!.message;
};

describe('export request', () => {
  it('defaults to the spec workbook of every receipt', () => {
    const request = exportRequestSchema.parse({});
    expect(request).toMatchObject({ format: 'xlsx', preset: 'generic', name: 'receipts_export' });
    expect(sheetNamesOf(request)).toEqual(['Receipts', 'Validation Issues', 'Summary']);
  });

  it('reads ids from a query string or a JSON array', () => {
    expect(exportRequestSchema.parse({ ids: `${ID},${ID}` }).ids).toEqual([ID]);
    expect(exportRequestSchema.parse({ ids: [ID] }).ids).toEqual([ID]);
  });

  it.each([
    [{ ids: { a: 1 } }, EXPORT_ERRORS.notArray],
    [{ ids: [ID, null] }, EXPORT_ERRORS.nullReceipt],
    [{ ids: ['nope'] }, 'Invalid receipt id: "nope"'],
    [{ format: 'ods' }, EXPORT_ERRORS.bookType],
    [{ format: 'xlsx', preset: 'xero' }, 'Xero exports as CSV or the zip pack: ask for format=csv'],
    [{ format: 'csv', preset: 'ofx' }, 'OFX bank statement exports as OFX or the zip pack: ask for format=ofx'],
    [{ format: 'qif' }, 'Excel (all fields) exports as XLSX, CSV or the zip pack: ask for format=xlsx'],
    [{ preset: 'sage', format: 'csv' }, 'preset must be one of generic, quickbooks, xero, ynab, firefly, ofx, qif, datev'],
    [{ name: 'a/b' }, 'The file name cannot contain / \\ : * ? " < > |'],
    [{ receiptsSheet: 'x'.repeat(32) }, WORKBOOK_ERRORS.tooLong],
    [{ issuesSheet: 'Issues: 2024' }, WORKBOOK_ERRORS.illegal],
    [{ summarySheet: 'receipts' }, WORKBOOK_ERRORS.duplicate],
  ])('%j → %s', (input, message) => {
    expect(firstError(input)).toBe(message);
  });

  it("takes the preset's own file when no format is asked for", () => {
    expect(exportRequestSchema.parse({ preset: 'qif' }).format).toBe('qif');
    expect(exportRequestSchema.parse({ preset: 'datev' }).format).toBe('csv');
    expect(exportRequestSchema.parse({ preset: 'datev', format: 'zip' }).format).toBe('zip');
  });

  it('takes a name with or without its extension', () => {
    expect(exportRequestSchema.parse({ name: 'March.xlsx' }).name).toBe('March');
  });
});
