// The import files read back by readers that are not ours: ofx-js for OFX, qif2json for QIF,
// csv-parse (after decoding Windows-1252 with iconv-lite for DATEV) for the CSV layouts.
import { parse as parseCsv } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { parseSync as parseOfx } from 'ofx-js';
import { parse as parseQif } from 'qif2json';
import { describe, expect, it } from 'vitest';
import type { ReceiptView } from '../receipt.schema.js';
import { FIREFLY_COLUMNS, fireflyImportConfig, type DateFormat, type ExportPreset } from './accounting-presets.js';
import { DEFAULT_DATEV_SETTINGS, datevSettingsSchema } from './datev-settings.schema.js';
import { DATEV_COLUMNS, datevBatchProblem, datevBookings, datevDocumentNumber, datevTaxKey, fiscalYearStart } from './datev.format.js';
import { EXPORT_FILES } from './export-files.js';
import type { ExportSource } from './export-rows.js';
import type { ImportContext } from './import-file.js';
import { ofxText } from './ofx.format.js';

/** How a cell starts that a spreadsheet would run as a formula, behind spaces too. */
const FORMULA_START = /^[\t\r\n]|^\s*[=+\-@]/;

let n = 0;
const source = (over: Partial<ReceiptView> = {}, filename: string | null = 'scan.jpg'): ExportSource => ({
  filename,
  receipt: {
    id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    merchantName: 'SRI BINTANG HARDWARE',
    date: '2024-03-05',
    currency: 'EUR',
    total: 10.4,
    tax: 0.59,
    category: 'retail',
    quality: 0.9,
    items: [],
    rawText: '',
    issues: [],
    flags: [],
    valid: true,
    ...over,
  },
});

const SOURCES = [
  source({ receiptNumber: 'CS-0012', paymentMethod: 'card' }),
  source({ merchantName: 'Café "Zur Post" & Söhne <GmbH>', date: '2024-03-28', total: 119, tax: 19, category: 'restaurant', paymentMethod: 'cash' }, 'quittung.pdf'),
  source({ merchantName: undefined, total: 7.5, tax: null, category: 'grocery' }, null),
  // Left out: no total.
  source({ total: null }),
];

function write(preset: ExportPreset, over: Partial<ImportContext> = {}): string {
  const file = EXPORT_FILES[preset];
  const writer = file.open({
    currency: 'EUR',
    from: '2024-03-05',
    to: '2024-03-28',
    dateFormat: file.defaultDateFormat,
    now: new Date('2024-04-02T10:11:12.345Z'),
    datev: DEFAULT_DATEV_SETTINGS,
    categoryAccounts: {},
    ...over,
  });
  return writer.head + SOURCES.map((s) => writer.record(s) ?? '').join('') + writer.tail();
}

describe('categories and tags of one’s own', () => {
  const open = (preset: ExportPreset, categoryAccounts: Record<string, string> = {}) => {
    const file = EXPORT_FILES[preset];
    return file.open({ currency: 'EUR', from: '2024-03-05', to: '2024-03-05', dateFormat: file.defaultDateFormat, now: new Date(), datev: DEFAULT_DATEV_SETTINGS, categoryAccounts });
  };
  const tagged = source({ category: 'Office supplies', tags: ['client A', 'travel'] });

  it.each(['quickbooks', 'xero', 'ynab', 'firefly', 'ofx', 'qif', 'datev', 'generic'] as const)('the tags are in the %s file', (preset) => {
    const text = iconv.decode(Buffer.from(iconv.encode(open(preset).record(tagged)!, 'win1252')), 'win1252');
    expect(text).toContain('client A');
    expect(text).toContain('travel');
  });

  it('Firefly III gets them as its comma-separated tags column, the category by its name', () => {
    const writer = open('firefly');
    const [row] = parseCsv(writer.head + writer.record(tagged)!, { columns: true }) as Array<Record<string, string>>;
    expect(row).toMatchObject({ Category: 'Office supplies', Tags: 'client A,travel' });
  });

  it.each([
    ['a built-in category: its account in the settings', 'restaurant', {}, '4650'],
    ['one of one’s own with an account: that account', 'Office supplies', { 'Office supplies': '4930' }, '4930'],
    ['one of one’s own without one: other’s', 'Office supplies', { Travel: '4670' }, '4900'],
  ])('DATEV books %s', (_, category, accounts, expected) => {
    const line = open('datev', accounts).record(source({ category }))!;
    const fields = parseCsv(line, { delimiter: ';' })[0] as string[];
    expect(fields[DATEV_COLUMNS.indexOf('Gegenkonto (ohne BU-Schlüssel)')]).toBe(expected);
  });

  it('DATEV carries the tags as Beleginfo 2', () => {
    const fields = parseCsv(open('datev').record(tagged)!, { delimiter: ';' })[0] as string[];
    expect(fields[DATEV_COLUMNS.indexOf('Beleginfo - Art 2')]).toBe('Tags');
    expect(fields[DATEV_COLUMNS.indexOf('Beleginfo - Inhalt 2')]).toBe('client A, travel');
  });
});

describe('the merchant’s VAT number and the receipt number', () => {
  it.each(['quickbooks', 'xero', 'ynab', 'firefly', 'ofx', 'qif', 'datev', 'generic'] as const)('are in the %s file', (preset) => {
    const file = EXPORT_FILES[preset];
    const writer = file.open({ currency: 'EUR', from: '2024-03-05', to: '2024-03-05', dateFormat: file.defaultDateFormat, now: new Date(), datev: DEFAULT_DATEV_SETTINGS, categoryAccounts: {} });
    const text = writer.record(source({ receiptNumber: 'CS-0012', tin: 'GB123456789' }))!;
    expect(text).toContain('GB123456789');
    expect(text).toContain('CS-0012');
  });
});

describe('OFX', () => {
  it('is a bank statement ofx-js reads: one debit per receipt, the receipt id as FITID, the sum as balance', () => {
    const ofx = parseOfx(write('ofx'));
    expect(ofx.header).toMatchObject({ OFXHEADER: '100', DATA: 'OFXSGML', VERSION: '102' });
    const statement = ofx.OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
    expect(statement.CURDEF).toBe('EUR');
    expect(statement.BANKTRANLIST).toMatchObject({ DTSTART: '20240305', DTEND: '20240328' });
    const transactions = statement.BANKTRANLIST.STMTTRN as Array<Record<string, string>>;
    expect(transactions).toHaveLength(3);
    expect(transactions[0]).toEqual({
      TRNTYPE: 'DEBIT',
      DTPOSTED: '20240305',
      TRNAMT: '-10.40',
      FITID: SOURCES[0]!.receipt.id,
      NAME: 'SRI BINTANG HARDWARE',
      MEMO: 'Retail #CS-0012 scan.jpg',
    });
    // Entities are read back as the characters; NAME is cut to OFX's 32.
    expect(transactions[1]!.NAME).toBe('Café "Zur Post" & Söhne <GmbH>'.slice(0, 32));
    expect(transactions[2]).toMatchObject({ NAME: 'Receipt', TRNAMT: '-7.50' });
    expect(statement.LEDGERBAL).toEqual({ BALAMT: '-136.90', DTASOF: '20240328' });
  });

  it('writes whole amounts for a currency without minor units', () => {
    const writer = EXPORT_FILES.ofx.open({ currency: 'JPY', from: '2024-03-05', to: '2024-03-05', dateFormat: 'YYYY-MM-DD', now: new Date(), datev: DEFAULT_DATEV_SETTINGS, categoryAccounts: {} });
    const text = writer.head + writer.record(source({ currency: 'JPY', total: 1200 }))! + writer.record(source({ currency: 'JPY', total: 80 }))! + writer.tail();
    const statement = parseOfx(text).OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
    expect(statement.BANKTRANLIST.STMTTRN.map((t: { TRNAMT: string }) => t.TRNAMT)).toEqual(['-1200', '-80']);
    expect(statement.LEDGERBAL.BALAMT).toBe('-1280');
  });

  it.each([
    ['a & b', 10, 'a &amp; b'],
    ['line\r\nbreak', 20, 'line break'],
    ['<tag>', 3, '&lt;ta'],
    ['日本語のレシート', 3, '日本語'],
  ])('ofxText(%j, %i) → %j', (text, max, out) => {
    expect(ofxText(text, max)).toBe(out);
  });
});

describe('QIF', () => {
  it('is a bank register qif2json reads, dates as the chosen layout', () => {
    const qif = parseQif(write('qif'), { dateFormat: 'us' });
    expect(qif.type).toBe('Bank');
    expect(qif.transactions).toHaveLength(3);
    expect(qif.transactions[0]).toEqual({
      date: '2024-03-05T00:00:00',
      amount: -10.4,
      payee: 'SRI BINTANG HARDWARE',
      memo: 'Receipt #CS-0012, paid by card, scan.jpg',
      category: 'Retail',
    });
    expect(qif.transactions[1]).toMatchObject({ amount: -119, payee: 'Café "Zur Post" & Söhne <GmbH>', category: 'Restaurant' });
    const uk = parseQif(write('qif', { dateFormat: 'DD/MM/YYYY' }));
    expect(uk.transactions.map((t) => t.date)).toEqual(['2024-03-05T00:00:00', '2024-03-28T00:00:00', '2024-03-05T00:00:00']);
  });
});

describe('YNAB CSV', () => {
  it('has the file-based import columns, money spent as an outflow', () => {
    const rows = parseCsv(write('ynab'), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0]!)).toEqual(['Date', 'Payee', 'Memo', 'Outflow', 'Inflow']);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual({ Date: '03/05/2024', Payee: 'SRI BINTANG HARDWARE', Memo: 'Receipt #CS-0012, paid by card, scan.jpg', Outflow: '10.40', Inflow: '' });
    expect(rows[2]).toMatchObject({ Payee: '', Outflow: '7.50' });
  });
});

describe('Firefly III CSV and its importer configuration', () => {
  it('gives every column a role the data importer knows, and finds duplicates by receipt id', () => {
    const rows = parseCsv(write('firefly'), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0]!)).toEqual([...FIREFLY_COLUMNS]);
    expect(rows[1]).toEqual({
      Date: '2024-03-28',
      Description: 'Café "Zur Post" & Söhne <GmbH>',
      Amount: '-119.00',
      Currency: 'EUR',
      Payee: 'Café "Zur Post" & Söhne <GmbH>',
      Category: 'Restaurant',
      Tags: '',
      Notes: 'paid by cash, quittung.pdf',
      'Receipt ID': SOURCES[1]!.receipt.id,
    });
    const config = JSON.parse(JSON.stringify(fireflyImportConfig('YYYY-MM-DD'))) as Record<string, unknown>;
    expect(config).toMatchObject({ version: 3, date: 'Y-m-d', delimiter: 'comma', headers: true, flow: 'file', content_type: 'csv' });
    expect(config.roles).toEqual(['date_transaction', 'description', 'amount', 'currency-code', 'opposing-name', 'category-name', 'tags-comma', 'note', 'external-id']);
    expect(config.do_mapping).toHaveLength(FIREFLY_COLUMNS.length);
    expect(config).toMatchObject({ duplicate_detection_method: 'cell', unique_column_index: 8, unique_column_type: 'external-id' });
    expect(fireflyImportConfig('DD/MM/YYYY').date).toBe('d/m/Y');
  });
});

describe('DATEV Buchungsstapel', () => {
  const decoded = () => iconv.decode(Buffer.from(iconv.encode(write('datev'), 'win1252')), 'win1252');
  const lines = () => parseCsv(decoded(), { delimiter: ';', relax_column_count: true }) as string[][];

  it('opens with the EXTF 700 header of a Buchungsstapel and the 125 column headings', () => {
    const [header, columns] = lines() as [string[], string[]];
    expect(header).toHaveLength(31);
    expect(header.slice(0, 6)).toEqual(['EXTF', '700', '21', 'Buchungsstapel', '13', '20240402101112345']);
    // Berater, Mandant, WJ-Beginn, Sachkontenlänge, Datum vom, Datum bis.
    expect(header.slice(10, 16)).toEqual(['1001', '1', '20240101', '4', '20240305', '20240328']);
    expect(header[21]).toBe('EUR');
    expect(header[26]).toBe('03');
    expect(columns).toEqual([...DATEV_COLUMNS]);
    expect(columns).toHaveLength(125);
  });

  it('books each receipt gross from Kasse or Bank to its category account with the tax key of its rate', () => {
    const [, , ...bookings] = lines();
    expect(bookings).toHaveLength(3);
    for (const row of bookings) expect(row).toHaveLength(125);
    const at = (row: string[], column: string) => row[DATEV_COLUMNS.indexOf(column)];
    const [card, cash, noTax] = bookings as [string[], string[], string[]];
    expect(card.slice(0, 10)).toEqual(['10,40', 'H', 'EUR', '', '', '', '1200', '4980', '', '0503']);
    expect(at(card, 'Belegfeld 1')).toBe('CS-0012');
    expect(at(card, 'Buchungstext')).toBe('SRI BINTANG HARDWARE');
    // 19 % of 119.00 gross is 19.00: Vorsteuer 19 %, key 9; paid in cash, so Kasse.
    expect(cash.slice(0, 10)).toEqual(['119,00', 'H', 'EUR', '', '', '', '1000', '4650', '9', '2803']);
    expect(at(cash, 'Buchungstext')).toBe('Café "Zur Post" & Söhne <GmbH>');
    expect(at(noTax, 'BU-Schlüssel')).toBe('');
    expect(at(noTax, 'Gegenkonto (ohne BU-Schlüssel)')).toBe('4980');
  });

  it('books a receipt with a rate table once per rate, each with its key, and names the merchant’s tax number', () => {
    const writer = EXPORT_FILES.datev.open({ currency: 'EUR', from: '2024-03-05', to: '2024-03-05', dateFormat: 'YYYY-MM-DD', now: new Date(), datev: DEFAULT_DATEV_SETTINGS, categoryAccounts: {} });
    const taxRates = [
      { rate: 19, net: 0.75, tax: 0.14, gross: 0.89 },
      { rate: 7, net: 11.36, tax: 0.8, gross: 12.16 },
    ];
    const split = source({ total: 13.05, tax: 0.94, taxRates, tin: 'DE123456789', paymentMethod: 'card' });
    const rows = parseCsv(iconv.decode(iconv.encode(writer.record(split)!, 'win1252'), 'win1252'), { delimiter: ';', relax_column_count: true }) as string[][];
    const at = (row: string[], column: string) => row[DATEV_COLUMNS.indexOf(column)];
    expect(rows.map((row) => [at(row, 'Umsatz (ohne Soll/Haben-Kz)'), at(row, 'BU-Schlüssel'), at(row, 'Belegdatum')])).toEqual([
      ['0,89', '9', '0503'],
      ['12,16', '8', '0503'],
    ]);
    for (const row of rows) expect([at(row, 'Beleginfo - Art 1'), at(row, 'Beleginfo - Inhalt 1')]).toEqual(['USt-IdNr./Steuernr.', 'DE123456789']);
    // A table whose gross amounts do not make the total (a rate misread) is booked once, gross.
    expect(datevBookings({ total: 20, tax: 1.5, taxRates: [...taxRates] }, DEFAULT_DATEV_SETTINGS.taxKeys)).toEqual([{ amount: 20, key: null }]);
    // A rate the settings do not key is booked without a key, for the adviser.
    expect(datevBookings({ total: 13.05, tax: 0.94, taxRates: [{ ...taxRates[0]!, rate: 16 }, taxRates[1]!] }, DEFAULT_DATEV_SETTINGS.taxKeys)).toEqual([
      { amount: 0.89, key: null },
      { amount: 12.16, key: '8' },
    ]);
  });

  it('writes Windows-1252: umlauts as single bytes', () => {
    const bytes = iconv.encode(write('datev'), 'win1252');
    expect(bytes.includes(Buffer.from('Söhne', 'latin1'))).toBe(true);
  });

  it.each([
    [{ total: 119, tax: 19 }, '9'],
    [{ total: 10.7, tax: 0.7 }, '8'],
    [{ total: 1.07, tax: 0.07 }, '8'],
    [{ total: 10.4, tax: 0.59 }, null],
    [{ total: 10, tax: 0 }, null],
    [{ total: 10, tax: null }, null],
    [{ total: 5, tax: 5 }, null],
  ])('tax key of %j → %s', (receipt, key) => {
    expect(datevTaxKey(receipt, DEFAULT_DATEV_SETTINGS.taxKeys)).toBe(key);
  });

  it.each([
    ['2024-03-05', 1, '2024-01-01'],
    ['2024-03-05', 7, '2023-07-01'],
    ['2024-07-01', 7, '2024-07-01'],
  ])('fiscal year of %s starting in month %i → %s', (day, month, start) => {
    expect(fiscalYearStart(day, month)).toBe(start);
  });

  it('refuses a batch across two fiscal years', () => {
    expect(datevBatchProblem('2024-01-01', '2024-12-31', { fiscalYearStartMonth: 1 })).toBeNull();
    expect(datevBatchProblem('2024-06-30', '2024-07-01', { fiscalYearStartMonth: 7 })).toMatch(/^A DATEV batch holds one fiscal year/);
  });

  it('writes a merchant and receipt number that are formulas as text, the file still one DATEV reads', () => {
    const writer = EXPORT_FILES.datev.open({ currency: 'EUR', from: '2024-03-05', to: '2024-03-05', dateFormat: 'YYYY-MM-DD', now: new Date(), datev: DEFAULT_DATEV_SETTINGS, categoryAccounts: {} });
    const hostile = [
      source({ merchantName: '=HYPERLINK("http://x","y")', receiptNumber: "+1+cmd|' /C calc'!A0" }),
      source({ merchantName: ' \t@SUM(A1)', receiptNumber: '-2+3' }),
    ];
    const text = writer.head + hostile.map((s) => writer.record(s)).join('');
    const [, , ...bookings] = parseCsv(iconv.decode(iconv.encode(text, 'win1252'), 'win1252'), { delimiter: ';', relax_column_count: true }) as string[][];
    const at = (row: string[], column: string) => row[DATEV_COLUMNS.indexOf(column)];
    expect(bookings).toHaveLength(2);
    for (const row of bookings) {
      expect(row).toHaveLength(125);
      for (const field of row) expect(field).not.toMatch(FORMULA_START);
    }
    expect(at(bookings[0]!, 'Buchungstext')).toBe(`'=HYPERLINK("http://x","y")`);
    expect(at(bookings[0]!, 'Belegfeld 1')).toBe('1+cmd/CcalcA0');
    expect(at(bookings[1]!, 'Buchungstext')).toBe("'@SUM(A1)");
    expect(at(bookings[1]!, 'Belegfeld 1')).toBe('2+3');
    // Quoted as DATEV wants its text fields: the apostrophe inside the quotes.
    expect(text).toContain(`;"'=HYPERLINK(""http://x"",""y"")";`);
  });

  it.each([
    ['RE 2024/17', 'RE2024/17'],
    ['Nr. 5;"x"', 'Nr5x'],
    ['x'.repeat(40), 'x'.repeat(36)],
    ['+1+cmd', '1+cmd'],
    ['-12', '-12'],
    ['- -A', 'A'],
  ])('Belegfeld 1 of %j → %j', (text, out) => {
    expect(datevDocumentNumber(text)).toBe(out);
  });

  it('checks the settings: accounts as long as the Sachkontenlänge', () => {
    expect(datevSettingsSchema.safeParse(DEFAULT_DATEV_SETTINGS).success).toBe(true);
    const long = datevSettingsSchema.safeParse({ ...DEFAULT_DATEV_SETTINGS, accountLength: 5 });
    expect(long.success ? null : long.error.issues[0]!.message).toBe('Every account must have 5 digits (the Sachkontenlänge)');
    const adviser = datevSettingsSchema.safeParse({ ...DEFAULT_DATEV_SETTINGS, consultantNumber: 12 });
    expect(adviser.success ? null : adviser.error.issues[0]!.message).toBe('The Beraternummer is 1001 to 9999999');
  });
});

describe('every import file', () => {
  it.each(Object.keys(EXPORT_FILES) as ExportPreset[])('%s starts no text field with a formula', (preset) => {
    const file = EXPORT_FILES[preset];
    const writer = file.open({ currency: 'EUR', from: '2024-03-05', to: '2024-03-05', dateFormat: file.defaultDateFormat, now: new Date(), datev: DEFAULT_DATEV_SETTINGS, categoryAccounts: {} });
    const hostile = [
      source({ merchantName: '=HYPERLINK("http://x","y")', receiptNumber: "+1+cmd|' /C calc'!A0" }, '@SUM(A1).jpg'),
      source({ merchantName: ' \t@SUM(A1)', receiptNumber: undefined, paymentMethod: undefined }, '-2+3.pdf'),
      source({ merchantName: '\t=1+1', receiptNumber: '-2+3', paymentMethod: '=cmd' }, '\r=1.png'),
    ];
    const text = writer.head + hostile.map((s) => writer.record(s)).join('') + writer.tail();
    let values: unknown[];
    if (file.extension === 'ofx') {
      values = (parseOfx(text).OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS.BANKTRANLIST.STMTTRN as Array<Record<string, string>>).flatMap((t) => Object.values(t));
    } else if (file.extension === 'qif') {
      values = parseQif(text).transactions.flatMap((t) => Object.values(t));
    } else {
      const decodedText = file.encoding === 'windows-1252' ? iconv.decode(iconv.encode(text, 'win1252'), 'win1252') : text;
      values = (parseCsv(decodedText, { bom: true, delimiter: preset === 'datev' ? ';' : ',', relax_column_count: true }) as string[][]).flat();
    }
    const texts = values.filter((v): v is string => typeof v === 'string' && !/^-?\d+([.,]\d+)?$/.test(v));
    expect(texts.some((v) => v.includes('HYPERLINK'))).toBe(true);
    for (const value of texts) expect(value).not.toMatch(FORMULA_START);
  });

  it.each(Object.keys(EXPORT_FILES) as ExportPreset[])('%s leaves out a receipt without a total', (preset) => {
    const file = EXPORT_FILES[preset];
    const writer = file.open({ currency: 'EUR', from: null, to: null, dateFormat: 'YYYY-MM-DD' as DateFormat, now: new Date(), datev: DEFAULT_DATEV_SETTINGS, categoryAccounts: {} });
    const missing = writer.record(source({ total: null }));
    if (file.carries === 'importable') expect(missing).toBeNull();
    else expect(missing).toContain('SRI BINTANG HARDWARE');
  });
});
