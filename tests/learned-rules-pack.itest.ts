// The built service end to end: corrections become rules the worker applies to the next
// receipts, the account's rule and DATEV routes, and the export pack and import files over HTTP,
// read back with independent readers (yauzl, ofx-js, qif2json, csv-parse).
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CategoryView, ClientConfig, MerchantRuleView, ReceiptDetail, ReceiptList } from '@receipts/common';
import ExcelJS from 'exceljs';
import { parse as parseCsv } from 'csv-parse/sync';
import { parseSync as parseOfx } from 'ofx-js';
import { parse as parseQif } from 'qif2json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipEntryNames } from './support/unzip.js';
import { activateSubscription, signUpUnconfirmed } from './support/accounts.js';
import { Deployment } from './support/deployment.js';
import { printedReceipt } from './support/printed-receipt.js';
import { uniqueIp, Visitor } from './support/visitor.js';

const PASSWORD = 'Secret123';
const json = (body: unknown): RequestInit => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
/** A day inside the spec's "reasonable range": `n` days ago, as the receipt prints it (DD/MM/YYYY). */
const daysAgo = (n: number) => new Date(Date.now() - n * 24 * 3600_000);
const printed = (d: Date) => `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;

/**
 * A made-up shop's receipt, read by the real OCR: the merchant on top, no keyword in its name; the
 * ringgit printed, and cash less change making the total, so only the name is in doubt.
 */
const shopReceipt = (day: Date, total: string) => [
  'ZENITH OPTICAL GALLERY',
  // A plain line under the name may be more of it: the name waits for a person (printed clearly, it is not otherwise doubted).
  'SILVER MOON',
  `DATE ${printed(day)} 10:20`,
  `LENS CLOTH RM ${total}`,
  `TOTAL RM ${total}`,
  'CASH RM 50.00',
  `CHANGE RM ${(50 - Number(total)).toFixed(2)}`,
];

describe('rules learned from corrections, and the export pack over HTTP', () => {
  let deployment: Deployment;
  let owner: Visitor;

  const upload = async (lines: string[], name: string): Promise<ReceiptDetail> => {
    const { status, body } = await owner.upload(await printedReceipt(lines, { format: 'jpeg' }), name);
    expect(status).toBe(202);
    expect((await owner.waitForEnd(body.id as string)).event).toBe('upload:completed');
    const list = (await owner.json<ReceiptList>('/api/receipts?pageSize=200')).body;
    const receipt = list.items.find((r) => r.uploadId === body.id)!;
    return (await owner.json<ReceiptDetail>(`/api/receipts/${receipt.id}`)).body;
  };

  beforeAll(async () => {
    // The operator's rates file, in the ECB's layout, with made-up rates for the days the receipts are of.
    const ratesDir = await mkdtemp(path.join(os.tmpdir(), 'rates-'));
    const ratesFile = path.join(ratesDir, 'eurofxref-hist.csv');
    const days = Array.from({ length: 10 }, (_, i) => daysAgo(i).toISOString().slice(0, 10));
    await writeFile(ratesFile, ['Date,USD,MYR,GBP,', ...days.map((d) => `${d},1.1000,5.0000,0.8500,`)].join('\n'));
    deployment = await Deployment.start('postgres', { EXCHANGE_RATES_FILE: ratesFile });
    owner = new Visitor(deployment.baseUrl, uniqueIp());
    const email = `rules-${Math.random().toString(36).slice(2)}@example.test`;
    await signUpUnconfirmed(owner, deployment.services.databaseUrl, email, PASSWORD);
    await activateSubscription(deployment.services.databaseUrl, email);
    await owner.connect();
  });

  afterAll(async () => {
    owner?.close();
    await deployment?.stop();
  });

  it("applies a merchant's corrected name and category to the next receipt, and lists, edits and deletes the rules", async () => {
    const first = await upload(shopReceipt(daysAgo(3), '24.00'), 'first.jpg');
    expect(first.merchantName).toMatch(/ZENITH/);
    const corrected = await owner.json<ReceiptDetail>(`/api/receipts/${first.id}`, { method: 'PATCH', ...json({ merchantName: 'Zenith Optical', category: 'pharmacy' }) });
    expect(corrected.status).toBe(200);

    const { body } = await owner.json<{ rules: MerchantRuleView[] }>('/api/user/rules');
    expect(body.rules.map(({ kind, match, value }) => ({ kind, match, value })).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: 'category', match: 'Zenith Optical', value: 'pharmacy' },
      { kind: 'merchant', match: first.merchantName, value: 'Zenith Optical' },
    ]);

    const second = await upload(shopReceipt(daysAgo(2), '31.50'), 'second.jpg');
    expect(second).toMatchObject({ merchantName: 'Zenith Optical', category: 'pharmacy', edited: false });

    // Edited on the account page: the next receipt follows the new category.
    const categoryRule = body.rules.find((r) => r.kind === 'category')!;
    expect((await owner.json(`/api/user/rules/${categoryRule.id}`, { method: 'PATCH', ...json({ value: 'nonsense' }) })).status).toBe(400);
    expect((await owner.json<MerchantRuleView>(`/api/user/rules/${categoryRule.id}`, { method: 'PATCH', ...json({ value: 'other' }) })).body.value).toBe('other');
    expect((await upload(shopReceipt(daysAgo(1), '12.00'), 'third.jpg')).category).toBe('other');

    // Deleted: the next receipt keeps the name rule only, and the keyword fallback for its category.
    const nameRule = body.rules.find((r) => r.kind === 'merchant')!;
    expect((await owner.request(`/api/user/rules/${nameRule.id}`, { method: 'DELETE' })).status).toBe(204);
    const fourth = await upload(shopReceipt(daysAgo(1), '9.00'), 'fourth.jpg');
    expect(fourth.merchantName).toBe(first.merchantName);
    // A name that may go on and no rule naming it waits for a person; a renamed one did not.
    expect(first.issues).toContain('Merchant name may continue on the next line');
    expect(fourth).toMatchObject({ issues: ['Merchant name may continue on the next line'], valid: false });
    expect(second).toMatchObject({ issues: [], valid: true });

    // Another visitor sees none of it.
    const stranger = new Visitor(deployment.baseUrl, uniqueIp());
    expect((await stranger.json('/api/user/rules')).status).toBe(401);
    expect((await stranger.json(`/api/user/rules/${categoryRule.id}`, { method: 'DELETE' })).status).toBe(401);
  });

  it('streams the pack and the import files over HTTP', async () => {
    const pack = await owner.request('/api/export?format=zip&preset=qif&name=Optician');
    expect(pack.status).toBe(200);
    expect(pack.headers.get('content-type')).toBe('application/zip');
    expect(pack.headers.get('content-disposition')).toContain('filename="Optician.zip"');
    const names = await zipEntryNames(Buffer.from(await pack.arrayBuffer()));
    expect(names.filter((n) => n.startsWith('originals/'))).toHaveLength(4);
    expect(names).toEqual(expect.arrayContaining(['Optician.xlsx', 'Optician.qif']));
    expect(names.find((n) => /^originals\/\d{4}-\d{2}-\d{2}_Zenith-Optical_31\.50\.jpg$/.test(n))).toBeDefined();

    const qif = parseQif(await (await owner.request('/api/export?preset=qif')).text(), { dateFormat: 'us' });
    expect(qif.transactions.map((t) => t.amount).sort()).toContain(-31.5);
    const ofx = parseOfx(await (await owner.request('/api/export?preset=ofx')).text());
    expect(ofx.OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS.CURDEF).toBeTruthy();

    const config = await owner.json<Record<string, unknown>>('/api/export/firefly-config?dateFormat=MM/DD/YYYY');
    expect(config.body).toMatchObject({ date: 'm/d/Y', headers: true });
  });

  it("keeps the user's DATEV settings and refuses settings DATEV would not take", async () => {
    const { body: defaults } = await owner.json<{ settings: Record<string, unknown>; saved: boolean }>('/api/user/datev-settings');
    expect(defaults).toMatchObject({ saved: false, settings: { consultantNumber: 1001, chartOfAccounts: 'SKR03' } });
    const wrong = await owner.json<{ message: string }>('/api/user/datev-settings', { method: 'PUT', ...json({ ...defaults.settings, cashAccount: '10000' }) });
    expect(wrong).toMatchObject({ status: 400, body: { message: 'Every account must have 4 digits (the Sachkontenlänge)' } });
    // The fiscal year begins in the month of the oldest receipt, so the receipts of these days never straddle two.
    const fiscalYearStartMonth = daysAgo(3).getUTCMonth() + 1;
    const saved = await owner.json('/api/user/datev-settings', { method: 'PUT', ...json({ ...defaults.settings, consultantNumber: 4711, clientNumber: 815, fiscalYearStartMonth }) });
    expect(saved.status).toBe(200);
    expect((await owner.json('/api/user/datev-settings')).body).toMatchObject({ saved: true, settings: { consultantNumber: 4711, clientNumber: 815 } });

    // The visitor uploads with MYR as its currency, so DATEV refuses the receipts until they are in euros.
    const refused = await owner.json<{ message: string }>('/api/export?preset=datev');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^The DATEV bookings are in euros/);
    const ids = (await owner.json<ReceiptList>('/api/receipts')).body.items.map((r) => r.id);
    for (const id of ids) await owner.json(`/api/receipts/${id}`, { method: 'PATCH', ...json({ currency: 'EUR' }) });
    const datev = await owner.request('/api/export?preset=datev');
    expect(datev.status).toBe(200);
    const [header] = parseCsv(Buffer.from(await datev.arrayBuffer()).toString('latin1'), { delimiter: ';', relax_column_count: true }) as string[][];
    expect(header!.slice(0, 5)).toEqual(['EXTF', '700', '21', 'Buchungsstapel', '13']);
    expect(header!.slice(10, 12)).toEqual(['4711', '815']);
  });

  it('adds the totals in a home currency at the rates of the operator’s file, and says what it cannot convert', async () => {
    expect((await owner.json<ClientConfig>('/api/config')).body.convertibleCurrencies).toEqual(['EUR', 'GBP', 'MYR', 'USD']);
    const workbook = await owner.request('/api/export?format=xlsx&convertTo=gbp');
    expect(workbook.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await workbook.arrayBuffer()) as unknown as ExcelJS.Buffer);
    const sheet = book.getWorksheet('Receipts')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const at = (column: string) => sheet.getRow(2).getCell(header.indexOf(column) + 1).value;
    // The receipts are in euros by now (the DATEV test): 1 EUR = 0.85 GBP on every day of the file.
    expect([at('converted_currency'), at('exchange_rate')]).toEqual(['GBP', 0.85]);
    expect(at('converted_total')).toBeCloseTo((at('total') as number) * 0.85, 2);
    const lacking = await owner.json<{ message: string }>('/api/export?format=xlsx&convertTo=SGD');
    expect(lacking).toMatchObject({ status: 400, body: { message: "This server's exchange rates file has no rates for SGD." } });
  });

  it('books a category of the user’s own to its DATEV account, with the tags, and deletes it into other', async () => {
    const made = await owner.json<CategoryView>('/api/user/categories', { method: 'POST', ...json({ name: 'Eyewear', datevAccount: '4985' }) });
    expect(made).toMatchObject({ status: 201, body: { name: 'Eyewear', builtIn: false, datevAccount: '4985', receipts: 0 } });
    expect((await owner.json('/api/user/categories', { method: 'POST', ...json({ name: 'eyewear' }) })).status).toBe(409);
    expect((await owner.json('/api/user/categories', { method: 'POST', ...json({ name: 'Tools', datevAccount: '12' }) })).status).toBe(400);

    // One that is ready for export: DATEV books only those.
    const [receipt] = (await owner.json<ReceiptList>('/api/receipts?valid=true&pageSize=1')).body.items;
    const patched = await owner.json<ReceiptDetail>(`/api/receipts/${receipt!.id}`, { method: 'PATCH', ...json({ category: 'eyewear', tags: ['client A', 'Client A', 'glasses'] }) });
    expect(patched).toMatchObject({ status: 200, body: { category: 'Eyewear', tags: ['client A', 'glasses'] } });
    expect((await owner.json(`/api/receipts/${receipt!.id}`, { method: 'PATCH', ...json({ tags: ['a,b'] }) })).status).toBe(400);
    expect((await owner.json<ReceiptList>('/api/receipts?tag=GLASSES')).body.items.map((r) => r.id)).toEqual([receipt!.id]);
    const listed = (await owner.json<{ categories: CategoryView[] }>('/api/user/categories')).body.categories;
    expect(listed.find((c) => c.name === 'Eyewear')).toMatchObject({ receipts: 1 });

    const datev = await owner.request(`/api/export?preset=datev&tag=glasses`);
    expect(datev.status).toBe(200);
    const rows = parseCsv(Buffer.from(await datev.arrayBuffer()).toString('latin1'), { delimiter: ';', relax_column_count: true }) as string[][];
    const [columns, booking] = [rows[1]!, rows[2]!];
    expect(booking[columns.indexOf('Gegenkonto (ohne BU-Schlüssel)')]).toBe('4985');
    expect(booking[columns.indexOf('Beleginfo - Inhalt 2')]).toBe('client A, glasses');

    // Renamed, then deleted: the receipt follows, then goes to other.
    expect((await owner.json<CategoryView>('/api/user/categories/Eyewear', { method: 'PATCH', ...json({ name: 'Glasses' }) })).body).toMatchObject({ name: 'Glasses', receipts: 1 });
    expect((await owner.json<ReceiptDetail>(`/api/receipts/${receipt!.id}`)).body.category).toBe('Glasses');
    expect((await owner.request('/api/user/categories/Glasses', { method: 'DELETE' })).status).toBe(204);
    expect((await owner.json<ReceiptDetail>(`/api/receipts/${receipt!.id}`)).body).toMatchObject({ category: 'other', tags: ['client A', 'glasses'] });
    expect((await owner.request('/api/user/categories/grocery', { method: 'DELETE' })).status).toBe(400);

    const stranger = new Visitor(deployment.baseUrl, uniqueIp());
    expect((await stranger.json('/api/user/categories')).status).toBe(401);
  });
});
