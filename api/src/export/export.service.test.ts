import { PassThrough, type Readable } from 'node:stream';
import { awaitingApproval, EXPORT_ERRORS, exportRequestSchema, issueFlag, parseEcbRates, type ExportRequest } from '@receipts/common';
import { CategoryRepository, LocalFileStore, ReceiptRepository, schema, type FileStore, WorkspaceRepository, type ExtractedReceipt } from '@receipts/infra';
import { eq } from 'drizzle-orm';
import { parse as parseCsv } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubscriber } from '../../../tests/support/accounts.js';
import { unzip } from '../../../tests/support/unzip.js';
import { teamWorkspace } from '../../../tests/support/workspaces.js';
import { extracted, openUploadStack, pngFile, type UploadStack } from '../../../tests/support/upload-stack.js';
import { HttpError } from '../http-error.js';
import type { Owner } from '../session.js';
import { UploadService } from '../uploads/upload.service.js';
import { ExportService } from './export.service.js';

// Real PostgreSQL, Redis and file store; receipts are stored as a worker would store them.
describe('export service: import files and the export pack', () => {
  let stack: UploadStack;
  let exports: ExportService;
  let workspaces: WorkspaceRepository;
  /** Originals opened and not yet closed, and the most at once. */
  let open = 0;
  let mostOpen = 0;

  beforeAll(async () => {
    stack = await openUploadStack();
    workspaces = new WorkspaceRepository(stack.database.db);
    // The real file store, watched: how many originals are open at once.
    const files = new LocalFileStore(stack.storage);
    const watched = Object.assign(Object.create(files) as FileStore, {
      readStream: async (id: string): Promise<Readable> => {
        const stream = await files.readStream(id);
        mostOpen = Math.max(mostOpen, ++open);
        stream.once('close', () => open--);
        return stream;
      },
    });
    exports = new ExportService(new ReceiptRepository(stack.database.db), workspaces, new CategoryRepository(stack.database.db), watched, stack.log);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  async function subscriber(): Promise<Owner> {
    const { userId } = await createSubscriber(stack.database.db);
    return { userId, anonId: null, clientIp: null };
  }

  /** A completed upload with its receipt; its upload id and the bytes of its original. */
  async function stored(owner: Owner, fields: Partial<ExtractedReceipt>, filename = 'scan.png'): Promise<{ uploadId: string; bytes: Buffer }> {
    const file = { ...pngFile(), originalname: filename };
    const service = new UploadService(stack);
    const { id } = await service.create(owner, file);
    await service.stored(id);
    await stack.uploads.claim(id);
    await stack.uploads.complete(id, extracted({ merchantName: 'Corner Shop', date: '2024-05-01', currency: 'EUR', ...fields }));
    return { uploadId: id, bytes: file.buffer };
  }

  async function download(owner: Owner, query: Record<string, unknown>): Promise<{ bytes: Buffer; rows: number; skipped: number; filename: string }> {
    const prepared = await exports.prepare(owner, exportRequestSchema.parse(query) as ExportRequest);
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await prepared.write(out);
    return { bytes: Buffer.concat(chunks), rows: prepared.rows, skipped: prepared.skipped, filename: prepared.filename };
  }

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (err: unknown) => (err instanceof HttpError ? { status: err.status, message: err.message } : err),
    );

  it('adds each total converted to a home currency at its day’s rate from the operator’s file, and nothing where the file has no rate', async () => {
    const rates = parseEcbRates('Date,USD,GBP,\n2024-05-03,1.2000,0.8000,\n2024-05-02,1.1000,0.8500,\n');
    const converting = new ExportService(new ReceiptRepository(stack.database.db), workspaces, new CategoryRepository(stack.database.db), new LocalFileStore(stack.storage), stack.log, rates);
    const owner = await subscriber();
    await stored(owner, { merchantName: 'Friday Deli', date: '2024-05-03', total: 12, currency: 'USD' });
    // A Sunday: the Friday's rates.
    await stored(owner, { merchantName: 'Sunday Kiosk', date: '2024-05-05', total: 6, currency: 'EUR' });
    await stored(owner, { merchantName: 'Far Away', date: '2024-05-03', total: 100, currency: 'MYR' });
    const prepared = await converting.prepare(owner, exportRequestSchema.parse({ format: 'xlsx', convertTo: 'gbp' }) as ExportRequest);
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await prepared.write(out);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet('Receipts')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(-4)).toEqual(['converted_currency', 'converted_total', 'exchange_rate', 'rate_date']);
    const byMerchant = new Map<string, unknown[]>();
    sheet.eachRow((row, n) => {
      const cell = (column: string) => row.getCell(header.indexOf(column) + 1).value;
      if (n > 1) byMerchant.set(String(cell('merchantName')), ['converted_currency', 'converted_total', 'exchange_rate', 'rate_date'].map(cell));
    });
    expect(byMerchant.get('Friday Deli')).toEqual(['GBP', 8, 0.666667, new Date('2024-05-03T00:00:00Z')]);
    expect(byMerchant.get('Sunday Kiosk')).toEqual(['GBP', 4.8, 0.8, new Date('2024-05-03T00:00:00Z')]);
    // No ringgit in the file: not converted, never guessed.
    expect(byMerchant.get('Far Away')).toEqual(['GBP', null, null, null]);
    // The converted total is money in the home currency.
    expect(sheet.getRow(2).getCell(header.indexOf('converted_total') + 1).numFmt).toContain('£');

    // Refused, before anything is written: no rates file, a currency it lacks, a file that is no workbook.
    expect(await refusal(exports.prepare(owner, exportRequestSchema.parse({ format: 'xlsx', convertTo: 'GBP' }) as ExportRequest))).toEqual({ status: 400, message: EXPORT_ERRORS.noRates });
    expect(await refusal(converting.prepare(owner, exportRequestSchema.parse({ format: 'xlsx', convertTo: 'SGD' }) as ExportRequest))).toEqual({ status: 400, message: EXPORT_ERRORS.ratesLack('SGD') });
    expect(await refusal(converting.prepare(owner, exportRequestSchema.parse({ preset: 'ynab', convertTo: 'GBP' }) as ExportRequest))).toEqual({ status: 400, message: EXPORT_ERRORS.convertInWorkbook });
  });

  it('puts only approved receipts and those needing no approval into a team’s import files; its workbook shows every one with its approval', async () => {
    const [boss, staff] = [await subscriber(), await subscriber()];
    const team = await teamWorkspace(stack.database.db, boss.userId!, [{ userId: staff.userId!, role: 'member' }]);
    const owner: Owner = { ...boss, workspace: { id: team, role: 'owner', personal: false } };
    const member: Owner = { ...staff, workspace: { id: team, role: 'member', personal: false } };
    await stored(owner, { merchantName: 'Owner lunch', total: 10 });
    const uploads: Record<string, string> = {};
    for (const merchantName of ['Draft', 'Submitted', 'Approved', 'Rejected']) uploads[merchantName] = (await stored(member, { merchantName, total: 1 })).uploadId;
    const decided = { Submitted: 'submitted', Approved: 'approved', Rejected: 'rejected' } as const;
    for (const [name, status] of Object.entries(decided)) {
      await stack.database.db.update(schema.uploads).set({ approvalStatus: status, approvalComment: status === 'rejected' ? 'Not ours' : null }).where(eq(schema.uploads.id, uploads[name]!));
    }

    const csv = await download(owner, { format: 'csv', preset: 'xero' });
    expect(csv.rows).toBe(2);
    expect((parseCsv(csv.bytes, { columns: true }) as Array<Record<string, string>>).map((r) => r.Payee).toSorted()).toEqual(['Approved', 'Owner lunch']);
    const pack = await unzip((await download(owner, { format: 'zip', preset: 'xero' })).bytes);
    const note = pack.get('left-out-of-import.txt')!.toString('utf8');
    expect(note).toContain('3 receipts are not in the Xero file');
    expect(note).toContain('Rejected): not approved (rejected).');

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await download(owner, { format: 'xlsx' })).bytes as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet('Receipts')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(-2)).toEqual(['approval', 'approval_comment']);
    const approvals = new Map<string, unknown[]>();
    sheet.eachRow((row, n) => {
      const cell = (column: string) => row.getCell(header.indexOf(column) + 1).value;
      if (n > 1) approvals.set(String(cell('merchantName')), [cell('approval'), cell('approval_comment')]);
    });
    expect(Object.fromEntries(approvals)).toEqual({
      'Owner lunch': ['No approval needed', null],
      Draft: ['Draft', null],
      Submitted: ['Submitted', null],
      Approved: ['Approved', null],
      Rejected: ['Rejected', 'Not ours'],
    });

    // Nothing approved yet: the refusal says why, rather than blaming validation.
    const [alone, helper] = [await subscriber(), await subscriber()];
    const waiting = await teamWorkspace(stack.database.db, alone.userId!, [{ userId: helper.userId!, role: 'member' }]);
    await stored({ ...helper, workspace: { id: waiting, role: 'member', personal: false } }, { total: 4 });
    expect(await refusal(download({ ...alone, workspace: { id: waiting, role: 'owner', personal: false } }, { format: 'csv', preset: 'quickbooks' }))).toEqual({
      status: 400,
      message: `No approved receipts with a date and a total for QuickBooks to export: ${awaitingApproval(1)}`,
    });
    // A personal workspace's workbook has no Approval column.
    await stored(alone, { total: 2 });
    const personal = new ExcelJS.Workbook();
    await personal.xlsx.load((await download(alone, { format: 'xlsx' })).bytes as unknown as ExcelJS.Buffer);
    expect((personal.getWorksheet('Receipts')!.getRow(1).values as unknown[]).includes('approval')).toBe(false);
  });

  it('packs the workbook, the preset file and every original of a date range, the workbook linking to them', async () => {
    const owner = await subscriber();
    const tesco = await stored(owner, { merchantName: 'Corner Pantry', date: '2024-03-05', total: 12.5 }, 'IMG_0001.png');
    // The same merchant, day and total: a second name, not a second file under one name.
    const again = await stored(owner, { merchantName: 'Corner Pantry', date: '2024-03-05', total: 12.5 }, 'IMG_0002.png');
    const hostile = await stored(owner, { merchantName: '../../../etc/passwd', date: '2024-03-07', total: 3 }, 'x.png');
    const flawed = await stored(owner, { merchantName: 'Café Müller', date: '2024-03-09', total: 4.2, valid: false, issues: [issueFlag('legacy', { text: 'Missing total' })] }, 'cafe.png');
    await stored(owner, { merchantName: 'Outside the range', date: '2024-04-20', total: 9 });

    const pack = await download(owner, { format: 'zip', preset: 'quickbooks', from: '2024-03-01', to: '2024-03-31', name: 'March' });
    expect(pack.filename).toBe('March.zip');
    const entries = await unzip(pack.bytes);
    expect([...entries.keys()].sort()).toEqual(
      [
        'March.csv',
        'March.xlsx',
        'left-out-of-import.txt',
        'originals/2024-03-05_Corner-Pantry_12.50.png',
        'originals/2024-03-05_Corner-Pantry_12.50_2.png',
        'originals/2024-03-07_etc-passwd_3.00.png',
        'originals/2024-03-09_Café-Müller_4.20.png',
      ].sort(),
    );
    expect(entries.get('originals/2024-03-05_Corner-Pantry_12.50.png')).toEqual(tesco.bytes);
    expect(entries.get('originals/2024-03-05_Corner-Pantry_12.50_2.png')).toEqual(again.bytes);
    expect(entries.get('originals/2024-03-07_etc-passwd_3.00.png')).toEqual(hostile.bytes);
    expect(entries.get('originals/2024-03-09_Café-Müller_4.20.png')).toEqual(flawed.bytes);
    expect(mostOpen).toBe(1);

    const csv = parseCsv(entries.get('March.csv')!, { columns: true }) as Array<Record<string, string>>;
    expect(csv.map((r) => r.Amount)).toEqual(['-12.50', '-12.50', '-3.00']);
    expect(entries.get('left-out-of-import.txt')!.toString('utf8')).toContain('cafe.png (2024-03-09, Café Müller): needs review (Missing total).');

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(entries.get('March.xlsx') as unknown as ExcelJS.Buffer);
    const link = (sheet: string, row: number) => workbook.getWorksheet(sheet)!.getRow(row).getCell(1).value as ExcelJS.CellFormulaValue;
    expect(link('Receipts', 2)).toMatchObject({ formula: 'HYPERLINK("originals/2024-03-05_Corner-Pantry_12.50.png","IMG_0001.png")', result: 'IMG_0001.png' });
    expect(link('Receipts', 3).formula).toContain('originals/2024-03-05_Corner-Pantry_12.50_2.png');
    expect(link('Validation Issues', 2).formula).toBe('HYPERLINK("originals/2024-03-09_Café-Müller_4.20.png","cafe.png")');
  });

  it('notes the originals it cannot include and still ends a whole pack', async () => {
    const owner = await subscriber();
    const kept = await stored(owner, { merchantName: 'Kept', date: '2024-06-01', total: 1 });
    const lost = await stored(owner, { merchantName: 'Lost', date: '2024-06-02', total: 2 }, 'lost.png');
    const expired = await stored(owner, { merchantName: 'Expired', date: '2024-06-03', total: 3 }, 'old.png');
    await stack.files.delete(lost.uploadId);
    await stack.files.delete(expired.uploadId);
    await stack.uploads.markOriginalsDeleted([expired.uploadId]);

    const entries = await unzip((await download(owner, { format: 'zip' })).bytes);
    expect([...entries.keys()].sort()).toEqual(['missing-originals.txt', 'originals/2024-06-01_Kept_1.00.png', 'receipts_export.csv', 'receipts_export.xlsx']);
    expect(entries.get('originals/2024-06-01_Kept_1.00.png')).toEqual(kept.bytes);
    const note = entries.get('missing-originals.txt')!.toString('utf8');
    expect(note).toContain('2 originals are not in this pack');
    expect(note).toContain('lost.png (2024-06-02, Lost) would be originals/2024-06-02_Lost_2.00.png: not found in storage.');
    expect(note).toMatch(/old\.png \(2024-06-03, Expired\) would be originals\/2024-06-03_Expired_3\.00\.png: deleted on \d{4}-\d{2}-\d{2}, at the end of the retention period\./);
    // No link to a file that is not there.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(entries.get('receipts_export.xlsx') as unknown as ExcelJS.Buffer);
    expect(workbook.getWorksheet('Receipts')!.getRow(3).getCell(1).value).toBe('lost.png');
  });

  it('adds the Firefly III importer configuration beside its CSV', async () => {
    const owner = await subscriber();
    await stored(owner, { total: 5 });
    const entries = await unzip((await download(owner, { format: 'zip', preset: 'firefly', dateFormat: 'DD/MM/YYYY' })).bytes);
    expect(JSON.parse(entries.get('receipts_export.json')!.toString('utf8'))).toMatchObject({ date: 'd/m/Y', delimiter: 'comma', headers: true });
    expect(parseCsv(entries.get('receipts_export.csv')!, { columns: true })).toEqual([expect.objectContaining({ Date: '01/05/2024', Amount: '-5.00' })]);
  });

  it('writes DATEV with the user’s own numbers and accounts, and refuses what one batch cannot hold', async () => {
    const owner = await subscriber();
    await stored(owner, { merchantName: 'Tankstelle', date: '2024-02-10', total: 59.5, tax: 9.5, category: 'gas', paymentMethod: 'card' });
    await workspaces.saveDatevSettings({ workspaceId: owner.userId!, actorId: owner.userId }, {
      consultantNumber: 29098,
      clientNumber: 55003,
      fiscalYearStartMonth: 1,
      accountLength: 4,
      chartOfAccounts: 'SKR03',
      cashAccount: '1000',
      bankAccount: '1210',
      expenseAccounts: { grocery: '4980', restaurant: '4650', gas: '4530', retail: '4980', pharmacy: '4900', other: '4900' },
      taxKeys: [{ rate: 19, key: '9' }],
    });
    const { bytes } = await download(owner, { preset: 'datev' });
    const [header, , booking] = parseCsv(bytes.toString('latin1'), { delimiter: ';', relax_column_count: true }) as string[][];
    expect(header!.slice(10, 16)).toEqual(['29098', '55003', '20240101', '4', '20240210', '20240210']);
    expect(booking!.slice(0, 10)).toEqual(['59,50', 'H', 'EUR', '', '', '', '1210', '4530', '9', '1002']);

    await stored(owner, { date: '2025-01-03', total: 2 });
    expect(await refusal(exports.prepare(owner, exportRequestSchema.parse({ preset: 'datev' })))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^A DATEV batch holds one fiscal year/),
    });
    await stored(owner, { date: '2025-01-04', total: 2, currency: 'USD' });
    expect(await refusal(exports.prepare(owner, exportRequestSchema.parse({ preset: 'datev', from: '2025-01-01' })))).toMatchObject({
      status: 400,
      message: 'The DATEV bookings are in euros, and some of these receipts are in USD. Filter the export to EUR.',
    });
    const dollars = await download(owner, { preset: 'ofx', currency: 'USD' });
    expect(dollars.bytes.toString('utf8')).toContain('<CURDEF>USD');
  });

  it('splits a selection in several currencies into one import file per currency, in one zip', async () => {
    const owner = await subscriber();
    await stored(owner, { merchantName: 'Tesco', date: '2024-07-01', total: 12.5, currency: 'GBP' });
    await stored(owner, { merchantName: 'Rewe', date: '2024-07-02', total: 7.2, currency: 'EUR' });
    await stored(owner, { merchantName: 'Aldi', date: '2024-07-03', total: 3.1, currency: 'EUR' });
    await stored(owner, { merchantName: 'Linella', date: '2024-07-04', total: 100, currency: 'MDL', valid: false, issues: [issueFlag('legacy', { text: 'Missing total' })] });

    for (const preset of ['quickbooks', 'xero', 'ynab', 'qif', 'ofx'] as const) {
      const split = await download(owner, { preset, name: 'July' });
      expect(split).toMatchObject({ filename: 'July.zip', rows: 3 });
      const entries = await unzip(split.bytes);
      const extension = preset === 'qif' || preset === 'ofx' ? preset : 'csv';
      expect([...entries.keys()].sort()).toEqual([`July-EUR.${extension}`, `July-GBP.${extension}`]);
      const euros = entries.get(`July-EUR.${extension}`)!.toString('utf8');
      expect(euros).toContain(preset === 'ofx' ? '<CURDEF>EUR' : '7.20');
      expect(euros).toContain('3.10');
      expect(euros).not.toContain('12.50');
      expect(entries.get(`July-GBP.${extension}`)!.toString('utf8')).toContain('12.50');
    }
    // One currency chosen: one plain file, as before.
    const pounds = await download(owner, { preset: 'quickbooks', currency: 'GBP', name: 'July' });
    expect(pounds.filename).toBe('July.csv');
    expect((parseCsv(pounds.bytes, { columns: true }) as Array<Record<string, string>>).map((r) => r.Amount)).toEqual(['-12.50']);
    // Files that carry the currency in a column hold them all.
    const firefly = parseCsv((await download(owner, { preset: 'firefly' })).bytes, { columns: true }) as Array<Record<string, string>>;
    expect(firefly.map((r) => r.Currency)).toEqual(['GBP', 'EUR', 'EUR']);

    // The pack: the workbook with every receipt, a file per currency, and a note of what the files left out.
    const pack = await unzip((await download(owner, { format: 'zip', preset: 'xero', name: 'July' })).bytes);
    expect([...pack.keys()].filter((k) => !k.startsWith('originals/')).sort()).toEqual(['July-EUR.csv', 'July-GBP.csv', 'July.xlsx', 'left-out-of-import.txt']);
    expect(pack.get('left-out-of-import.txt')!.toString('utf8')).toBe(
      '1 receipt is not in the Xero file. The workbook lists every receipt, these on its Validation Issues sheet or without a date or total:\r\n\r\n' +
        'scan.png (2024-07-04, Linella): needs review (Missing total).\r\n',
    );
  });

  it('writes net, tax and gross per VAT rate in the workbook, a DATEV booking per rate, and the VAT number in both', async () => {
    const owner = await subscriber();
    const taxRates = [
      { rate: 19, net: 0.75, tax: 0.14, gross: 0.89 },
      { rate: 7, net: 11.36, tax: 0.8, gross: 12.16 },
    ];
    await stored(owner, { merchantName: 'Markt', date: '2024-09-02', total: 13.05, tax: 0.94, taxRates, tin: 'DE123456789', receiptNumber: '4711' });

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await download(owner, { format: 'xlsx' })).bytes as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet('Receipts')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const cell = (column: string) => sheet.getRow(2).getCell(header.indexOf(column) + 1);
    expect(['vat_1_rate', 'vat_1_net', 'vat_1_tax', 'vat_1_gross', 'vat_2_rate', 'vat_2_gross', 'tin', 'receiptNumber'].map((c) => cell(c).value)).toEqual([19, 0.75, 0.14, 0.89, 7, 12.16, 'DE123456789', '4711']);
    expect(cell('vat_2_gross').numFmt).toBe(cell('total').numFmt);

    const [, , ...bookings] = parseCsv((await download(owner, { preset: 'datev' })).bytes.toString('latin1'), { delimiter: ';', relax_column_count: true }) as string[][];
    expect(bookings.map((b) => [b[0], b[8]])).toEqual([
      ['0,89', '9'],
      ['12,16', '8'],
    ]);
    expect(bookings.every((b) => b.includes('DE123456789') && b.includes('4711'))).toBe(true);
  });

  it('packs the workbook and originals even when no receipt is ready for the import file, and says why', async () => {
    const owner = await subscriber();
    await stored(owner, { merchantName: 'Blurred', date: '2024-08-01', total: 9, valid: false, issues: [issueFlag('dateNotFound')] }, 'blurred.png');
    await stored(owner, { merchantName: 'Undated', date: null, total: 4, quality: 0.3, valid: false }, 'undated.png');

    expect(await refusal(exports.prepare(owner, exportRequestSchema.parse({ preset: 'quickbooks' })))).toMatchObject({ status: 400, message: expect.stringMatching(/^No valid receipts with a date and a total for QuickBooks to export/) });
    const pack = await download(owner, { format: 'zip', preset: 'quickbooks' });
    expect(pack).toMatchObject({ rows: 2 });
    const entries = await unzip(pack.bytes);
    expect([...entries.keys()].sort()).toEqual(['left-out-of-import.txt', 'originals/2024-08-01_Blurred_9.00.png', 'originals/undated_Undated_4.00.png', 'receipts_export.xlsx']);
    const note = entries.get('left-out-of-import.txt')!.toString('utf8');
    expect(note).toMatch(/^2 receipts are not in the QuickBooks file\./);
    expect(note).toContain('blurred.png (2024-08-01, Blurred): needs review (Date not found).');
    expect(note).toContain('undated.png (no date, Undated): needs review (Quality below 60%).');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(entries.get('receipts_export.xlsx') as unknown as ExcelJS.Buffer);
    expect(workbook.getWorksheet('Validation Issues')!.rowCount).toBe(3);
  });
});
