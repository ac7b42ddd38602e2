import { z } from 'zod';
import { safeText } from '../control-characters.rule.js';
import { receiptFilterSchema } from '../receipt-library.schema.js';
import { DATE_FORMATS, EXPORT_PRESET_LABELS, EXPORT_PRESETS, type ExportPreset } from './accounting-presets.js';
import { EXPORT_FILES } from './export-files.js';
import { validateSheetNames, WorkbookError } from './workbook.rules.js';

/** `zip` is the export pack: the workbook, the preset's file and every original. */
export const EXPORT_FORMATS = ['xlsx', 'csv', 'ofx', 'qif', 'zip'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The downloads a preset offers, its own first: the workbook or its import file, then the pack. */
export function formatsOf(preset: ExportPreset): ExportFormat[] {
  return preset === 'generic' ? ['xlsx', 'csv', 'zip'] : [EXPORT_FILES[preset].extension, 'zip'];
}

/** Spec §7: the workbook file and its sheets. */
export const DEFAULT_EXPORT_NAME = 'receipts_export';
export const DEFAULT_SHEET_NAMES = { receipts: 'Receipts', issues: 'Validation Issues', summary: 'Summary' } as const;
/** Spec §9: a larger export is only worth a warning in the log. */
export const LARGE_EXPORT_WARNING = 1000;
/** How many receipts one request may name (a POST body of ids stays well under 100 kB). */
export const MAX_EXPORT_IDS = 2000;

/** Spec §5 and §8 texts of the export's errors. */
export const EXPORT_ERRORS = {
  nothing: 'No completed receipts to export',
  notArray: 'Invalid input: receipts must be an array',
  nullReceipt: 'Invalid receipt data: null or undefined',
  bookType: 'Unrecognized bookType',
  noRates: 'This server has no exchange rates file, so nothing is converted. Export without converting, or ask its operator to provide one.',
  convertInWorkbook: 'Totals are converted in the workbook: export to Excel or as the export pack.',
  ratesLack: (currency: string) => `This server's exchange rates file has no rates for ${currency}.`,
} as const;

const ILLEGAL_FILE_CHARS = /[/\\:*?"<>|]/;

const ids = z.preprocess(
  // A query string names them comma-separated; a JSON body as an array.
  (value) => (typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value),
  z
    .array(z.unknown(), { error: EXPORT_ERRORS.notArray })
    .max(MAX_EXPORT_IDS, `Export at most ${MAX_EXPORT_IDS} selected receipts at once, or export them all`)
    .transform((list, ctx) => {
      for (const id of list) {
        if (id === null || id === undefined) {
          ctx.addIssue({ code: 'custom', message: EXPORT_ERRORS.nullReceipt });
          return z.NEVER;
        }
        if (typeof id !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
          ctx.addIssue({ code: 'custom', message: `Invalid receipt id: ${JSON.stringify(id).slice(0, 60)}` });
          return z.NEVER;
        }
      }
      return [...new Set(list as string[])];
    }),
);

const sheetName = safeText().optional();

/**
 * GET /api/export (query) and POST /api/export (JSON body, for selections too long for a URL).
 * Without `ids` every receipt matching the filters is exported.
 */
export const exportRequestSchema = receiptFilterSchema
  .extend({
    /** Without one, the preset's own: the workbook, or the preset's import file. */
    format: z.enum(EXPORT_FORMATS, { error: EXPORT_ERRORS.bookType }).optional(),
    preset: z.enum(EXPORT_PRESETS, { error: `preset must be one of ${EXPORT_PRESETS.join(', ')}` }).default('generic'),
    ids: ids.optional(),
    /** The file's name without extension. */
    name: safeText()
      .trim()
      .transform((n) => n.replace(/\.(xlsx|csv)$/i, ''))
      .pipe(
        z
          .string()
          .min(1, 'The file name is empty')
          .max(100, 'The file name is longer than 100 characters')
          .refine((n) => !ILLEGAL_FILE_CHARS.test(n), 'The file name cannot contain / \\ : * ? " < > |'),
      )
      .default(DEFAULT_EXPORT_NAME),
    /** Dates of the import files; each preset has its product's usual default. */
    dateFormat: z.enum(DATE_FORMATS, { error: `dateFormat must be one of ${DATE_FORMATS.join(', ')}` }).optional(),
    receiptsSheet: sheetName,
    issuesSheet: sheetName,
    summarySheet: sheetName,
    /** Adds each total converted to this currency to the Receipts sheet, at its day's rate from the operator's rates file. */
    convertTo: z
      .string()
      .regex(/^[A-Za-z]{3}$/, 'convertTo must be a three-letter ISO 4217 code')
      .transform((c) => c.toUpperCase())
      .optional(),
  })
  .superRefine((request, ctx) => {
    const formats = formatsOf(request.preset);
    if (request.format && !formats.includes(request.format)) {
      const names = formats.map((f) => (f === 'zip' ? 'the zip pack' : f.toUpperCase()));
      ctx.addIssue({
        code: 'custom',
        path: ['format'],
        message: `${EXPORT_PRESET_LABELS[request.preset]} exports as ${names.slice(0, -1).join(', ')} or ${names.at(-1)}: ask for format=${formats[0]}`,
      });
    }
    try {
      validateSheetNames(sheetNamesOf(request));
    } catch (err) {
      if (!(err instanceof WorkbookError)) throw err;
      ctx.addIssue({ code: 'custom', path: ['sheets'], message: err.message });
    }
  })
  .transform((request) => ({ ...request, format: request.format ?? formatsOf(request.preset)[0]! }));
export type ExportRequest = z.infer<typeof exportRequestSchema>;

/** The workbook's sheet names, in order: the defaults of spec §7 unless the request names them. */
export function sheetNamesOf(request: Pick<ExportRequest, 'receiptsSheet' | 'issuesSheet' | 'summarySheet'>): [string, string, string] {
  return [
    request.receiptsSheet ?? DEFAULT_SHEET_NAMES.receipts,
    request.issuesSheet ?? DEFAULT_SHEET_NAMES.issues,
    request.summarySheet ?? DEFAULT_SHEET_NAMES.summary,
  ];
}
