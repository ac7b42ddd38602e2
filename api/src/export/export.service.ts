import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  actingWorkspace,
  DEFAULT_DATEV_SETTINGS,
  DEFAULT_SHEET_NAMES,
  EXPORT_ERRORS,
  EXPORT_FILES,
  EXPORT_PRESET_LABELS,
  awaitingApproval,
  LARGE_EXPORT_WARNING,
  PACK_LEFT_OUT_NOTE,
  currencyFileName,
  datevBatchProblem,
  fireflyImportConfig,
  leftOutHeading,
  leftOutLine,
  SAMPLE_EXPORT_NAME,
  sampleExport,
  sheetNamesOf,
  type ExchangeRates,
  type ExportRequest,
  type ExportSource,
  type ImportContext,
  type ImportFile,
} from '@receipts/common';
import {
  toReceiptView,
  type CategoryRepository,
  type ExportCounts,
  type ExportPick,
  StoredFileMissingError,
  type FileStore,
  type KeptExport,
  type Logger,
  type OriginalRow,
  type ReceiptRepository,
  type ReceiptScope,
  type WorkspaceRepository,
} from '@receipts/infra';
import iconv from 'iconv-lite';
import { HttpError, notFound } from '../http-error.js';
import type { Owner } from '../session.js';
import { writePack, type GeneratedEntry } from './export-pack.writer.js';
import { roomIn, writeWorkbook, type HomeCurrency, type OriginalLink } from './workbook.writer.js';

/**
 * Receipts read per query. A page (and the next one, read ahead) must die young: at 1,000 they
 * outlived the young generation and the export's peak RSS went from +30 MB to +150 MB.
 */
const PAGE_SIZE = 500;
/** Data rows one xlsx sheet holds (1,048,576 rows less the header). */
const XLSX_MAX_ROWS = 1_048_575;

export interface PreparedExport {
  filename: string;
  contentType: string;
  /** Receipts in the file, and (presets) valid receipts left out for lack of a date or total. */
  rows: number;
  withIssues: number;
  skipped: number;
  /** A selection in several currencies split into one import file per currency: those currencies. */
  currencies?: string[];
  write(out: Writable): Promise<void>;
}

/** An import file ready to stream: its context checked, its receipts (one currency's, when split) counted. */
interface PlannedFile {
  file: ImportFile;
  context: ImportContext;
  scope: ReceiptScope;
  /** Its name as the download or in a zip. */
  name: string;
  rows: number;
}

const CONTENT_TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  zip: 'application/zip',
} as const;

/**
 * Export: the spec §7 workbook, the import files of the presets and the export pack (a zip of
 * the workbook, the preset's file and the originals), streamed from the database page by page.
 */
export class ExportService {
  constructor(
    private readonly receipts: ReceiptRepository,
    private readonly workspaces: Pick<WorkspaceRepository, 'datevSettings'>,
    private readonly categories: CategoryRepository,
    private readonly files: FileStore,
    private readonly log: Logger,
    /** The operator's reference rates (EXCHANGE_RATES_FILE); without them nothing is converted. */
    private readonly rates: ExchangeRates | null = null,
  ) {}

  /**
   * Everything that can be refused is checked here, before the first byte is sent: once the
   * file streams, the status line is gone.
   */
  async prepare(owner: Owner, request: ExportRequest): Promise<PreparedExport> {
    const scope = this.receipts.scope(owner, request, request.ids);
    const counts = await this.receipts.exportCounts(scope);
    const { total, valid } = counts;
    if (request.ids && total < request.ids.length) throw notFound('Some of the selected receipts were not found. Reload the list and try again.');
    if (total === 0) throw new HttpError(400, 'NOTHING_TO_EXPORT', EXPORT_ERRORS.nothing);
    if (total > LARGE_EXPORT_WARNING) this.log.warn({ receipts: total }, 'large export');
    const withIssues = total - valid;
    const sheets = sheetNamesOf(request);
    const home = this.homeCurrency(request);
    // A team workspace's workbook says where each receipt stands in the approval step.
    const approval = actingWorkspace(owner)?.personal === false;
    const workbook = (out: Writable, linkOf?: OriginalLink) => writeWorkbook(out, sheets, this.pages(scope, { all: true }), { linkOf, home, approval });

    if (request.format === 'xlsx' || request.format === 'zip') {
      if (valid > XLSX_MAX_ROWS || withIssues > XLSX_MAX_ROWS) throw new HttpError(400, 'VALIDATION_FAILED', 'Range exceeds format limit');
    }
    if (request.format === 'xlsx') {
      return { filename: `${request.name}.xlsx`, contentType: CONTENT_TYPES.xlsx, rows: valid, withIssues, skipped: 0, write: (out) => workbook(out) };
    }

    const file = EXPORT_FILES[request.preset];
    const label = EXPORT_PRESET_LABELS[request.preset];
    const planned = await this.plan(owner, request, scope, counts);
    // The workbook and the originals are what a person needs to review receipts: a pack is never refused for lack of importable ones.
    if (planned.length === 0 && request.format !== 'zip') throw nothingValid(counts, file.carries === 'valid' ? undefined : label);
    const carried = planned.reduce((sum, p) => sum + p.rows, 0);
    const skipped = file.carries === 'valid' ? 0 : counts.carried - counts.importable;
    const writeFile = (p: PlannedFile) => (out: Writable) => writeImportFile(out, p, this.pages(p.scope, { carried: p.file.carries }));
    const entryOf = (p: PlannedFile): GeneratedEntry => ({ name: p.name, store: false, write: writeFile(p) });
    const split = planned.length > 1 ? { currencies: planned.map((p) => p.context.currency) } : {};
    if (request.format !== 'zip') {
      if (planned.length === 1) {
        const [only] = planned as [PlannedFile];
        return { filename: only.name, contentType: file.contentType, rows: carried, withIssues, skipped, write: writeFile(only) };
      }
      // One file per currency, in one zip: an accounting import books in one currency.
      return {
        filename: `${request.name}.zip`,
        contentType: CONTENT_TYPES.zip,
        rows: carried,
        withIssues,
        skipped,
        ...split,
        write: (out) => writePack(out, { originals: noOriginals(), openOriginal: async () => null, entries: planned.map(entryOf), texts: [] }, this.log),
      };
    }
    const leftOut = total - carried;
    const leftOutNote: GeneratedEntry[] =
      leftOut > 0 ? [{ name: PACK_LEFT_OUT_NOTE, store: false, write: (out) => this.writeLeftOut(out, scope, { leftOutOf: file.carries }, leftOutHeading(leftOut, label)) }] : [];
    return {
      filename: `${request.name}.zip`,
      contentType: CONTENT_TYPES.zip,
      rows: total,
      withIssues,
      skipped,
      ...split,
      write: (out) =>
        writePack(
          out,
          {
            originals: this.originalPages(scope),
            openOriginal: (uploadId) =>
              this.files.readStream(uploadId).catch((err: unknown) => {
                // A missing original is noted in the pack; any other failure ends the download.
                if (err instanceof StoredFileMissingError) return null;
                throw err;
              }),
            entries: [{ name: `${request.name}.xlsx`, store: true, write: workbook }, ...planned.map(entryOf), ...leftOutNote],
            texts:
              request.preset === 'firefly' && planned[0]
                ? [{ name: `${request.name}.json`, text: JSON.stringify(fireflyImportConfig(planned[0].context.dateFormat, planned[0].context.now), null, 2) }]
                : [],
          },
          this.log,
        ),
    };
  }

  /**
   * Writes a prepared export whole and keeps it in the file store under an id of its own (an
   * export asked for with an Idempotency-Key: a repeat is sent these very bytes). Spooled to a
   * temporary file first, since a pack can be far larger than memory should hold.
   */
  async keep(prepared: PreparedExport): Promise<KeptExport> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'export-'));
    try {
      const spool = path.join(dir, 'export');
      const out = createWriteStream(spool);
      try {
        await prepared.write(out);
      } catch (err) {
        out.destroy();
        throw err;
      }
      if (!out.closed) await once(out, 'close');
      const fileId = randomUUID();
      await this.files.putFile(fileId, spool);
      const { filename, contentType, rows, withIssues, skipped, currencies } = prepared;
      return { fileId, filename, contentType, rows, withIssues, skipped, ...(currencies ? { currencies } : {}) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** A kept export, ready to be sent again as it was first sent. */
  async kept(kept: KeptExport): Promise<PreparedExport> {
    const { fileId, ...facts } = kept;
    // Opened before the status line is sent: a stored file that cannot be read is still an error answer.
    const stored = await this.files.readStream(fileId);
    return { ...facts, write: (out) => pipeline(stored, out) };
  }

  /** The pack's note of the receipts its import file left out: a line each, why, a page at a time. */
  private async writeLeftOut(out: Writable, scope: ReceiptScope, pick: ExportPick, heading: string): Promise<void> {
    out.write(heading);
    for await (const page of this.pages(scope, pick)) {
      out.write(page.map(leftOutLine).join(''));
      await roomIn(out);
    }
    await ended(out);
  }

  /** The home currency a workbook adds the totals in, checked against what the rates file holds; undefined when none is asked for. */
  private homeCurrency(request: ExportRequest): HomeCurrency | undefined {
    if (!request.convertTo) return undefined;
    if (!this.rates) throw new HttpError(400, 'VALIDATION_FAILED', EXPORT_ERRORS.noRates);
    if (request.format !== 'xlsx' && request.format !== 'zip') throw new HttpError(400, 'VALIDATION_FAILED', EXPORT_ERRORS.convertInWorkbook);
    if (!this.rates.rates.has(request.convertTo)) throw new HttpError(400, 'VALIDATION_FAILED', EXPORT_ERRORS.ratesLack(request.convertTo));
    return { currency: request.convertTo, rates: this.rates };
  }

  /** A report's receipts (GET /api/reports/:id/export): the workbook of all of them, each with its approval. */
  async reportWorkbook(scope: ReceiptScope, name: string): Promise<PreparedExport> {
    const { total, valid } = await this.receipts.exportCounts(scope);
    const sheets = [DEFAULT_SHEET_NAMES.receipts, DEFAULT_SHEET_NAMES.issues, DEFAULT_SHEET_NAMES.summary] as const;
    return {
      filename: `${name}.xlsx`,
      contentType: CONTENT_TYPES.xlsx,
      rows: valid,
      withIssues: total - valid,
      skipped: 0,
      write: (out) => writeWorkbook(out, sheets, this.pages(scope, { all: true }), { approval: true }),
    };
  }

  /** The home page's sample result as a workbook, in `currency` at the demo rates: no account or receipts needed. */
  sample(currency: string): PreparedExport {
    const sources = sampleExport(currency);
    return {
      filename: `${SAMPLE_EXPORT_NAME}.xlsx`,
      contentType: CONTENT_TYPES.xlsx,
      rows: sources.length,
      withIssues: 0,
      skipped: 0,
      write: (out) =>
        writeWorkbook(
          out,
          [DEFAULT_SHEET_NAMES.receipts, DEFAULT_SHEET_NAMES.issues, DEFAULT_SHEET_NAMES.summary],
          (async function* () {
            yield sources;
          })(),
        ),
    };
  }

  /** The Firefly III data importer's configuration for the Firefly file of the same date layout. */
  fireflyConfig(request: Pick<ExportRequest, 'dateFormat'>): Record<string, unknown> {
    return fireflyImportConfig(request.dateFormat ?? EXPORT_FILES.firefly.defaultDateFormat);
  }

  /**
   * The preset's file for these receipts (none when it would carry none), or why it cannot be
   * written. A file that books in one currency is one file per currency when the receipts are in
   * several.
   */
  private async plan(owner: Owner, request: ExportRequest, scope: ReceiptScope, counts: ExportCounts): Promise<PlannedFile[]> {
    const file = EXPORT_FILES[request.preset];
    const byValidity = file.carries === 'valid';
    if ((byValidity ? counts.carried : counts.importable) === 0) return [];
    const currencies = (byValidity ? counts.carriedCurrencies : counts.importableCurrencies).toSorted();
    if (file.currencies === 'EUR' && currencies.some((c) => c !== 'EUR')) {
      throw new HttpError(
        400,
        'VALIDATION_FAILED',
        `The DATEV bookings are in euros, and some of these receipts are in ${currencies.filter((c) => c !== 'EUR').join(', ')}. Filter the export to EUR.`,
      );
    }
    const workspace = request.preset === 'datev' ? actingWorkspace(owner) : null;
    const datev = workspace ? ((await this.workspaces.datevSettings(workspace.id)) ?? DEFAULT_DATEV_SETTINGS) : DEFAULT_DATEV_SETTINGS;
    const categoryAccounts = workspace ? await this.categories.accounts(workspace.id) : {};
    if (request.preset === 'datev' && counts.from && counts.to) {
      const problem = datevBatchProblem(counts.from, counts.to, datev);
      if (problem) throw new HttpError(400, 'VALIDATION_FAILED', problem);
    }
    const now = new Date();
    const planned = (fileScope: ReceiptScope, fileCounts: ExportCounts, currency: string, name: string): PlannedFile => ({
      file,
      scope: fileScope,
      name,
      rows: byValidity ? fileCounts.carried : fileCounts.importable,
      context: { currency, from: fileCounts.from, to: fileCounts.to, dateFormat: request.dateFormat ?? file.defaultDateFormat, now, datev, categoryAccounts },
    });
    if (file.currencies !== 'single' || currencies.length <= 1) return [planned(scope, counts, currencies[0] ?? 'USD', `${request.name}.${file.extension}`)];
    return Promise.all(
      currencies.map(async (currency) => {
        const ofCurrency = this.receipts.scope(owner, { ...request, currency }, request.ids);
        return planned(ofCurrency, await this.receipts.exportCounts(ofCurrency), currency, currencyFileName(request.name, currency, file.extension));
      }),
    );
  }

  /**
   * The scope's receipts in upload order, a page per query, resuming after the last row seen.
   * The next page is asked for before this one is handed out, so the database works while the
   * file is written.
   */
  private async *pages(scope: ReceiptScope, pick: ExportPick): AsyncGenerator<ExportSource[]> {
    let pending = this.receipts.exportPage(scope, pick, null, PAGE_SIZE);
    for (;;) {
      const rows = await pending;
      if (rows.length === 0) return;
      const last = rows.at(-1)!;
      const more = rows.length === PAGE_SIZE;
      if (more) pending = this.receipts.exportPage(scope, pick, { at: last.at, id: last.uploadId }, PAGE_SIZE);
      const sources = rows.map((r) => ({ filename: r.filename, receipt: toReceiptView(r), approval: { status: r.approvalStatus, comment: r.approvalComment } }));
      // Only the views stay alive while the page is written.
      rows.length = 0;
      yield sources;
      if (!more) return;
    }
  }

  /** Every receipt of the scope with its original's name and state, in upload order. */
  private async *originalPages(scope: ReceiptScope): AsyncGenerator<OriginalRow[]> {
    let after: { at: string; id: string } | null = null;
    for (;;) {
      const rows = await this.receipts.originalsPage(scope, after, PAGE_SIZE);
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < PAGE_SIZE) return;
      const last = rows.at(-1)!;
      after = { at: last.at, id: last.uploadId };
    }
  }
}

/** A zip of import files alone holds no originals. */
async function* noOriginals(): AsyncGenerator<OriginalRow[]> {}

function nothingValid(counts: ExportCounts, product?: string): HttpError {
  const target = product ? ` with a date and a total for ${product}` : '';
  // Valid receipts that wait for an approver are not in an import file: say so rather than blame validation.
  const awaiting = counts.valid - counts.carried;
  if (awaiting > 0) return new HttpError(400, 'NOTHING_TO_EXPORT', `No approved receipts${target} to export: ${awaitingApproval(awaiting)}`);
  const { total } = counts;
  return new HttpError(
    400,
    'NOTHING_TO_EXPORT',
    `No valid receipts${target} to export: ${total} receipt${total === 1 ? ' has' : 's have'} validation issues. Correct them in the library, or export the workbook to see them.`,
  );
}

/** Streams an import file: its opening, a record per receipt a page at a time, its closing, in the file's encoding. */
async function writeImportFile(out: Writable, { file, context }: PlannedFile, pages: AsyncIterable<ExportSource[]>): Promise<void> {
  const writer = file.open(context);
  const encode = (text: string): string | Buffer => (file.encoding === 'windows-1252' ? iconv.encode(text, 'win1252') : text);
  out.write(encode(writer.head));
  for await (const page of pages) {
    let chunk = '';
    for (const source of page) chunk += writer.record(source) ?? '';
    if (chunk) out.write(encode(chunk));
    await roomIn(out);
  }
  const tail = writer.tail();
  if (tail) out.write(encode(tail));
  await ended(out);
}

/** Ends a written stream; resolves once all of it is flushed, rejects if it fails. */
function ended(out: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
    out.end();
  });
}
