// Issue 15 in Debian's Chromium against the real api + worker (embedded mode): reviewing a
// receipt beside its picture, accepting a flag, editing items, exports and their refusals, the
// mobile library, the sample download, pricing for a subscriber, /success, and the account page.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { formatMoney, MAX_UPLOAD_BYTES, openFlagsOfView, renderIssue, USER_MESSAGES, type ReceiptDetail } from '@receipts/common';
import { parse as parseCsv } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshotPath, traceSessions } from './support/browser.js';
import { Deployment } from './support/deployment.js';
import { printedReceipt } from './support/printed-receipt.js';
import { startSmtpSink, tokenIn, type SmtpSink } from './support/smtp-sink.js';
import { repoRoot } from './support/service-process.js';

const EMAIL = 'reviewer@example.com';
const NEW_EMAIL = 'reviewer.moved@example.com';
const PASSWORD = 'Secret123';
const NEW_PASSWORD = 'Changed456';

/** A day inside the spec's two years, written DD/MM/YYYY with a day past 12 (no month/day doubt). */
function recentDay(): string {
  const d = new Date(Date.now() - 10 * 24 * 3600_000);
  while (d.getUTCDate() <= 12) d.setUTCDate(d.getUTCDate() - 1);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

const FRESH = 'fresh-stationery.jpg';
/** Dated 2019: always "Date out of reasonable range", however right it is. */
const OLD = 'old-bakery.jpg';
const LINES: Record<string, string[]> = {
  [FRESH]: ['PINE STREET STATIONERY', `DATE ${recentDay()} 11:05`, 'PAPER A4 4.50', 'PENCILS 2.25', 'TOTAL 6.75'],
  [OLD]: ['OLD TOWN BAKERY', 'DATE 21/09/2019 09:30', 'BREAD 3.20', 'MILK 2.10', 'TOTAL 5.30'],
};
/** A German café's receipt with its VAT table: two rates (read back per rate from the workbook and DATEV). */
const VAT = 'kaffeehaus-mwst.jpg';
LINES[VAT] = [
  'KAFFEEHAUS AM RING',
  `DATUM ${recentDay().replace(/\//g, '.')} 10:12`,
  'KAFFEE 3,20 A',
  'KUCHEN 4,50 A',
  'ZEITUNG 2,38 B',
  'SUMME EUR 10,08',
  'MWST% NETTO MWST BRUTTO',
  'A 7% 7,20 0,50 7,70',
  'B 19% 2,00 0,38 2,38',
  'BAR EUR 10,08',
];
const OUT_OF_RANGE = 'Date out of reasonable range';
/** Two more old receipts for the review inbox (deleted again once reviewed). */
const INBOX = ['inbox-old-deli.jpg', 'inbox-old-kiosk.jpg'];
LINES[INBOX[0]!] = ['HARBOUR DELI', 'DATE 14/05/2019 12:10', 'SOUP 4.20', 'BREAD 1.30', 'TOTAL 5.50'];
LINES[INBOX[1]!] = ['CORNER KIOSK', 'DATE 22/06/2019 08:45', 'NEWSPAPER 2.40', 'COFFEE 2.10', 'TOTAL 4.50'];

let dir: string;
let deployment: Deployment;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let smtp: SmtpSink;
let sessions: ReturnType<typeof traceSessions>;

const file = (name: string) => path.join(dir, name);
/** A notification showing `text` (screen readers get its words a second time, in a live region). */
const toastWith = (text: string) => page.locator('.toast', { hasText: text });
const row = (name: string) => page.locator(`[data-testid="upload-row"][aria-label="${name}"]`);

async function workbookOf(download: Download): Promise<ExcelJS.Workbook> {
  const saved = path.join(dir, `${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(saved);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(saved);
  return workbook;
}

/** A sheet's rows as objects keyed by its header row. */
function rowsOf(sheet: ExcelJS.Worksheet): Array<Record<string, unknown>> {
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: Array<Record<string, unknown>> = [];
  sheet.eachRow((r, n) => {
    if (n === 1) return;
    const values = (r.values as unknown[]).slice(1);
    rows.push(Object.fromEntries(header.map((h, i) => [h, values[i] ?? null])));
  });
  return rows;
}

/** The signed-in visitor's receipt of an upload, as the api has it. */
async function detailOf(filename: string): Promise<ReceiptDetail> {
  return page.evaluate(async (name) => {
    const list = (await (await fetch('/api/receipts?pageSize=200')).json()) as { items: Array<{ id: string; filename: string }> };
    const id = list.items.find((r) => r.filename === name)!.id;
    return (await (await fetch(`/api/receipts/${id}`)).json()) as ReceiptDetail;
  }, filename);
}

async function signIn(email: string, password: string): Promise<void> {
  await page.goto(`${deployment.baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('reviewing and exporting in a real browser', () => {
  beforeAll(async () => {
    if (!existsSync(path.join(repoRoot, 'web/dist/index.html'))) throw new Error('web/dist is missing: run npm run build first');
    dir = await mkdtemp(path.join(os.tmpdir(), 'web-review-'));
    for (const [name, lines] of Object.entries(LINES)) await writeFile(file(name), await printedReceipt(lines, { format: 'jpeg' }));
    smtp = await startSmtpSink();
    deployment = await Deployment.start('pglite', { SMTP_URL: smtp.url });
    browser = await launchChromium();
    context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
    sessions = traceSessions(page, deployment.baseUrl);
  });

  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail' || !page || page.isClosed()) return;
    console.log(`api requests and session cookies of the page so far:\n${sessions.lines.join('\n')}`);
    await page.screenshot({ path: screenshotPath(`review-failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`), fullPage: true });
  });

  afterAll(async () => {
    await browser?.close();
    await deployment?.stop();
    await smtp?.close();
  });

  it('the home page sample downloads the sample workbook, for a visitor with no receipts', async () => {
    const visitor = await browser.newContext({ acceptDownloads: true });
    const home = await visitor.newPage();
    await home.goto(`${deployment.baseUrl}/`);
    const [download] = await Promise.all([home.waitForEvent('download'), home.getByRole('link', { name: 'Download Excel' }).click()]);
    expect(download.suggestedFilename()).toBe('sample_receipts.xlsx');
    const workbook = await workbookOf(download);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Receipts', 'Validation Issues', 'Summary']);
    const [sample] = rowsOf(workbook.getWorksheet('Receipts')!);
    expect(sample).toMatchObject({ merchantName: 'Green Valley Grocers', total: 84.12, item_12_desc: 'Coffee Beans' });
    await visitor.close();
  });

  it('a 13 MB file is refused in the page before a byte is sent', async () => {
    const visitor = await browser.newContext();
    const home = await visitor.newPage();
    const sent: string[] = [];
    home.on('request', (r) => {
      if (r.url().includes('/api/ocr')) sent.push(`${r.method()} ${r.url()}`);
    });
    await home.goto(`${deployment.baseUrl}/`);
    await home.getByTestId('file-input').setInputFiles({ name: 'huge-scan.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(13 * 1024 * 1024, 0xff) });
    const refused = home.locator('[data-testid="upload-row"][aria-label="huge-scan.jpg"]');
    await refused.filter({ hasText: USER_MESSAGES.fileTooLarge }).waitFor();
    await expect(refused.getAttribute('data-status')).resolves.toBe('error');
    expect(13 * 1024 * 1024).toBeGreaterThan(MAX_UPLOAD_BYTES);
    expect(sent).toEqual([]);
    await home.getByTestId('quota-badge').filter({ hasText: '0/5 used today' }).waitFor();
    await visitor.close();
  });

  it('/success without a payment sends an anonymous visitor to the pricing page', async () => {
    const visitor = await browser.newContext();
    const anon = await visitor.newPage();
    await anon.goto(`${deployment.baseUrl}/success?plan=Business`);
    await anon.waitForURL(`${deployment.baseUrl}/pricing`);
    await expect(anon.getByText('Payment Successful').count()).resolves.toBe(0);
    await visitor.close();
  });

  it('a new account is welcomed, not welcomed back', async () => {
    await page.goto(`${deployment.baseUrl}/register`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    // Registering signs nobody in: sign in, then confirm the address by the mailed link.
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    const [confirmation] = await smtp.mailsTo(EMAIL, 1);
    await signIn(EMAIL, PASSWORD);
    await page.waitForURL(`${deployment.baseUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Welcome, reviewer' }).waitFor();
    // Confirmed through the api with this page's session (web.itest walks the confirmation page).
    const confirmed = await page.request.post(`${deployment.baseUrl}/api/auth/verify-email`, {
      data: { token: tokenIn(confirmation!, 'verify-email') },
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
    });
    expect(confirmed.status(), await confirmed.text()).toBe(200);
    // Signed in without a payment, /success is no place either.
    await page.goto(`${deployment.baseUrl}/success`);
    await page.waitForURL(`${deployment.baseUrl}/pricing`);
    await page.goto(`${deployment.baseUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Welcome back, reviewer' }).waitFor();
  });

  it('signing in while the page’s anonymous account read is still unanswered lands on the dashboard, signed in', async () => {
    const visitor = await browser.newContext();
    const other = await visitor.newPage();
    // The sign-in page's profile read answers 401 and is tried once more (spec §7); that retry,
    // sent before signing in, is answered only after it, as a loaded server does.
    let profileReads = 0;
    let retrySent!: () => void;
    const retryHeld = new Promise<void>((resolve) => (retrySent = resolve));
    let retryAnswered: Promise<void> | undefined;
    await other.route('**/api/user/profile', async (route) => {
      if (++profileReads !== 2) return route.continue();
      const anonymous = await route.fetch();
      retrySent();
      retryAnswered = new Promise((resolve) => setTimeout(resolve, 3000))
        // The page may have stopped waiting for it: then there is no one to answer.
        .then(() => route.fulfill({ response: anonymous }))
        .catch(() => undefined);
      await retryAnswered;
    });
    await other.goto(`${deployment.baseUrl}/login`);
    await retryHeld;
    await other.getByLabel('Email').fill(EMAIL);
    await other.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.waitForURL(`${deployment.baseUrl}/dashboard`);
    // A new browser: welcomed as on a first visit.
    await other.getByRole('heading', { name: 'Welcome, reviewer' }).waitFor();
    // Once the held anonymous answer is in: still signed in.
    await retryAnswered;
    await expect(other.getByRole('heading', { name: 'Welcome, reviewer' }).isVisible()).resolves.toBe(true);
    expect(new URL(other.url()).pathname).toBe('/dashboard');
    await visitor.close();
  });

  it('uploads two receipts; the dated one goes to the Validation Issues sheet with its date, tax and currency', async () => {
    await page.goto(`${deployment.baseUrl}/`);
    await page.getByTestId('file-input').setInputFiles([file(FRESH), file(OLD)]);
    for (const name of [FRESH, OLD]) await row(name).locator('[data-testid="upload-status"]', { hasText: 'Completed' }).waitFor({ timeout: 180_000 });
    const old = await detailOf(OLD);
    expect(old.issues).toContain(OUT_OF_RANGE);
    expect(old.valid).toBe(false);

    const [download] = await Promise.all([page.waitForEvent('download'), row(OLD).getByRole('button', { name: 'Export', exact: true }).click()]);
    const workbook = await workbookOf(download);
    expect(rowsOf(workbook.getWorksheet('Receipts')!)).toEqual([]);
    const [issue] = rowsOf(workbook.getWorksheet('Validation Issues')!);
    expect(Object.keys(issue!)).toEqual(['filename', 'merchantName', 'date', 'total', 'tax', 'currency', 'quality', 'issues', 'rawText']);
    expect(issue).toMatchObject({ filename: OLD, total: old.total, currency: old.currency ?? 'USD' });
    expect(issue!.date).toBeInstanceOf(Date);
    expect(String(issue!.issues)).toContain(OUT_OF_RANGE);
  });

  it('the same file again is not read nor counted: its row says when it came, and Skip drops it', async () => {
    await page.goto(`${deployment.baseUrl}/`);
    const used = () => page.evaluate(async () => ((await (await fetch('/api/user/quota', { headers: { 'X-Requested-With': 'XMLHttpRequest' } })).json()) as { used: number }).used);
    const before = await used();
    const copy = path.join(dir, 'fresh-again.jpg');
    await writeFile(copy, await readFile(file(FRESH)));
    await page.getByTestId('file-input').setInputFiles(copy);
    const again = row('fresh-again.jpg');
    await again.locator('[data-testid="upload-status"]', { hasText: 'Uploaded before' }).waitFor();
    await again.getByText(`You uploaded this file before, as ${FRESH} on `).waitFor();
    await again.getByRole('button', { name: 'Upload fresh-again.jpg again' }).waitFor();
    await page.screenshot({ path: screenshotPath('upload-duplicate') });
    expect(await used()).toBe(before);
    await again.getByRole('button', { name: 'Skip fresh-again.jpg' }).click();
    await again.waitFor({ state: 'detached' });
    const uploads = await page.evaluate(async () => (await (await fetch('/api/uploads', { headers: { 'X-Requested-With': 'XMLHttpRequest' } })).json()) as Array<{ filename: string }>);
    expect(uploads.map((u) => u.filename).sort()).toEqual([FRESH, OLD].sort());
  });

  it('a refused export shows the server’s reason, not "Export failed"', async () => {
    await page.goto(`${deployment.baseUrl}/receipts`);
    await page.getByRole('heading', { name: 'My Receipts' }).waitFor();
    const old = await detailOf(OLD);
    await page.getByRole('checkbox', { name: `Select ${old.merchantName ?? OLD}` }).first().check();
    await page.getByLabel('Layout').selectOption('quickbooks');
    await page.getByLabel('Format').selectOption('csv');
    await page.getByRole('button', { name: 'Export selected' }).click();
    await toastWith('No valid receipts with a date and a total for QuickBooks to export: 1 receipt has validation issues').waitFor();
    await expect(toastWith('Export failed. Please try again.').count()).resolves.toBe(0);
  });

  it('Receipt Details shows the picture; a field shows where it was read; a picked line fills a field', async () => {
    const old = await detailOf(OLD);
    expect(old.pages).toBe(1);
    expect(old.fieldLines.total).toEqual(expect.any(Number));
    await page.goto(`${deployment.baseUrl}/receipts`);
    const card = page.locator('.library-table tbody tr', { hasText: OLD });
    await card.getByRole('button', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Receipt Details' });
    const picture = dialog.getByRole('img', { name: 'Page 1 of the receipt' });
    await picture.waitFor();
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    await dialog.getByRole('button', { name: 'Show Total on the receipt' }).click();
    const box = dialog.locator('.ocr-line-active');
    await box.waitFor();
    await expect(box.getAttribute('data-line')).resolves.toBe(String(old.fieldLines.total));
    // The box sits on the picture, where the total's line was read.
    const [onPicture, image] = await Promise.all([box.boundingBox(), picture.boundingBox()]);
    expect(onPicture!.width).toBeGreaterThan(0);
    expect(onPicture!.x).toBeGreaterThanOrEqual(image!.x - 1);
    expect(onPicture!.y + onPicture!.height).toBeLessThanOrEqual(image!.y + image!.height + 1);
    await page.screenshot({ path: screenshotPath('details-highlight') });

    // Correcting: pick the merchant field, then a line of the picture.
    await dialog.getByRole('button', { name: 'Correct fields' }).click();
    const merchant = dialog.getByLabel('Merchant', { exact: true });
    await merchant.fill('');
    await merchant.focus();
    const merchantLine = typeof old.fieldLines.merchantName === 'number' ? old.fieldLines.merchantName : 0;
    await dialog.locator(`.ocr-line[data-line="${merchantLine}"]`).click();
    await expect(merchant.inputValue()).resolves.toBe(old.lines[merchantLine]!.text.trim());
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('accepting the flag puts the receipt on the Receipts sheet, with who and when kept', async () => {
    await page.goto(`${deployment.baseUrl}/receipts`);
    await page.locator('.library-table tbody tr', { hasText: OLD }).getByRole('button', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Receipt Details' });
    await dialog.getByRole('list', { name: 'Flags to review' }).waitFor();
    // Every flag this reading raised (the old date, and whatever else) is looked at and accepted.
    const accept = dialog.getByRole('button', { name: /^Accept: / });
    await dialog.getByRole('button', { name: `Accept: ${OUT_OF_RANGE}` }).click();
    await dialog.getByRole('button', { name: `Undo accepting: ${OUT_OF_RANGE}` }).waitFor();
    while ((await accept.count()) > 0) {
      const before = await accept.count();
      await accept.first().click();
      await expect.poll(() => accept.count()).toBeLessThan(before);
    }
    await dialog.getByText('Ready for export: every flag was accepted').waitFor();
    const old = await detailOf(OLD);
    expect(old.valid).toBe(true);
    expect(old.acceptedIssues).toEqual(expect.arrayContaining([{ issue: OUT_OF_RANGE, userId: expect.any(String), at: expect.any(String) }]));

    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export to Excel' }).click()]);
    const workbook = await workbookOf(download);
    const [exported] = rowsOf(workbook.getWorksheet('Receipts')!);
    expect(exported).toMatchObject({ filename: OLD, total: old.total });
    expect(rowsOf(workbook.getWorksheet('Validation Issues')!)).toEqual([]);
  });

  it('editing an item changes the exported row', async () => {
    const dialog = page.getByRole('dialog', { name: 'Receipt Details' });
    await dialog.getByRole('button', { name: 'Correct fields' }).click();
    const items = dialog.locator('.item-row');
    if ((await items.count()) === 0) await dialog.getByRole('button', { name: '+ Add item' }).click();
    await dialog.getByLabel('Description of item 1').fill('RYE BREAD (EDITED)');
    await dialog.getByLabel('Amount of item 1').fill('3.25');
    await page.screenshot({ path: screenshotPath('details-editing') });
    await dialog.getByRole('button', { name: 'Save corrections' }).click();
    await dialog.getByRole('button', { name: 'Correct fields' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export to Excel' }).click()]);
    const [exported] = rowsOf((await workbookOf(download)).getWorksheet('Receipts')!);
    expect(exported).toMatchObject({ item_1_desc: 'RYE BREAD (EDITED)', item_1_amount: 3.25 });
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('a category of one’s own, made on the account page, with tags, reaches the workbook and the DATEV file', async () => {
    await page.goto(`${deployment.baseUrl}/account`);
    await page.getByLabel('New category').fill('Office supplies');
    await page.getByLabel('DATEV account (optional)').fill('4930');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByLabel('Name of Office supplies').waitFor();
    await page.locator('#categories-title').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('account-categories') });

    await page.goto(`${deployment.baseUrl}/receipts`);
    await page.locator('.library-table tbody tr', { hasText: OLD }).getByRole('button', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Receipt Details' });
    await dialog.getByRole('button', { name: 'Correct fields' }).click();
    await dialog.getByRole('combobox', { name: 'Category' }).selectOption('Office supplies');
    await dialog.getByLabel('Tags').fill('client A, travel');
    // DATEV books euros.
    await dialog.getByLabel('Currency').fill('EUR');
    await dialog.getByRole('button', { name: 'Save corrections' }).click();
    await dialog.getByRole('button', { name: 'Correct fields' }).waitFor();
    await dialog.getByText('client A, travel').waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export to Excel' }).click()]);
    const [exported] = rowsOf((await workbookOf(download)).getWorksheet('Receipts')!);
    expect(exported).toMatchObject({ filename: OLD, category: 'Office supplies', tags: 'client A, travel', status: 'Checked by you' });
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await dialog.waitFor({ state: 'detached' });

    // The library filters by the tag; DATEV books the receipt to the category's account, the tags beside it.
    await page.getByLabel('Tag', { exact: true }).fill('TRAVEL');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.locator('.library-table tbody tr').count()).toBe(1);
    const datev = await page.evaluate(async () => {
      const res = await fetch('/api/export?preset=datev&tag=travel', { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
      return { status: res.status, text: new TextDecoder('windows-1252').decode(await res.arrayBuffer()) };
    });
    expect(datev.status).toBe(200);
    const [, columns, booking] = parseCsv(datev.text, { delimiter: ';', relax_column_count: true }) as string[][];
    expect(booking![columns!.indexOf('Gegenkonto (ohne BU-Schlüssel)')]).toBe('4930');
    expect(booking![columns!.indexOf('Beleginfo - Inhalt 2')]).toBe('client A, travel');
  });

  it('receipts in two currencies export as one QuickBooks file per currency, in one zip, and the page says so', async () => {
    // The old receipt is in euros since the test before; the fresh one, read in dollars, is made ready (its flags accepted).
    const fresh = await detailOf(FRESH);
    for (const issue of openFlagsOfView(fresh).map(renderIssue)) {
      await page.evaluate(
        async ({ id, issue }) => {
          await fetch(`/api/receipts/${id}/issues/accept`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' }, body: JSON.stringify({ issue }) });
        },
        { id: fresh.id, issue },
      );
    }
    expect((await detailOf(FRESH)).valid).toBe(true);
    await page.goto(`${deployment.baseUrl}/receipts`);
    await page.getByRole('heading', { name: 'My Receipts' }).waitFor();
    await page.getByLabel('Layout').selectOption('quickbooks');
    await page.getByLabel('Format').selectOption('csv');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export all' }).click()]);
    expect(download.suggestedFilename()).toBe('receipts_export.zip');
    const saved = path.join(dir, 'per-currency.zip');
    await download.saveAs(saved);
    const zip = await JSZip.loadAsync(await readFile(saved));
    expect(Object.keys(zip.files).sort()).toEqual(['receipts_export-EUR.csv', 'receipts_export-USD.csv']);
    const old = await detailOf(OLD);
    const euros = parseCsv(await zip.file('receipts_export-EUR.csv')!.async('string'), { columns: true }) as Array<Record<string, string>>;
    expect(euros.map((r) => r.Amount)).toEqual([(-old.total!).toFixed(2)]);
    await toastWith('One import file per currency (EUR, USD)').waitFor();
  });

  it('/receipts at 375 px shows a card per receipt with its total and status, and scrolls no sideways', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${deployment.baseUrl}/receipts`);
    const cards = page.getByTestId('library-card');
    await cards.first().waitFor();
    await expect(cards.count()).resolves.toBe(2);
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(375);
    await expect(page.locator('.library-table').isVisible()).resolves.toBe(false);
    const old = await detailOf(OLD);
    const card = cards.filter({ hasText: OLD });
    await expect(card.getByTestId('card-total').textContent()).resolves.toBe(formatMoney(old.total!, old.currency ?? 'USD'));
    await expect(card.getByTestId('card-status').textContent()).resolves.toContain('Ready');
    await expect(card.getByTestId('card-total').isVisible()).resolves.toBe(true);
    await page.screenshot({ path: screenshotPath('library-mobile'), fullPage: true });
    // The uploads on a phone: whole file names, and a camera beside the file picker.
    await page.goto(`${deployment.baseUrl}/`);
    await expect(page.getByRole('button', { name: 'Take a photo' }).isVisible()).resolves.toBe(true);
    const name = row(FRESH).locator('.upload-name');
    await expect(name.evaluate((el) => el.scrollWidth <= el.clientWidth)).resolves.toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('VAT per rate: the review screen, the workbook and a DATEV booking per rate, read back by exceljs and csv-parse', async () => {
    await page.goto(`${deployment.baseUrl}/`);
    await page.getByTestId('file-input').setInputFiles(file(VAT));
    await row(VAT).locator('[data-testid="upload-status"]', { hasText: 'Completed' }).waitFor({ timeout: 180_000 });
    const receipt = await detailOf(VAT);
    expect(receipt).toMatchObject({ currency: 'EUR', total: 10.08, valid: true });
    expect(receipt.taxRates).toEqual([
      { rate: 7, net: 7.2, tax: 0.5, gross: 7.7 },
      { rate: 19, net: 2, tax: 0.38, gross: 2.38 },
    ]);

    await row(VAT).getByRole('button', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Receipt Details' });
    const rates = dialog.getByRole('region', { name: 'Tax by rate' }).getByRole('row');
    await expect.poll(() => rates.allTextContents()).toEqual(['RateNetTaxGross', '7 %€7.20€0.50€7.70', '19 %€2.00€0.38€2.38']);
    await page.screenshot({ path: screenshotPath('details-tax-by-rate') });
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export to Excel' }).click()]);
    const [exported] = rowsOf((await workbookOf(download)).getWorksheet('Receipts')!);
    expect(exported).toMatchObject({ vat_1_rate: 7, vat_1_net: 7.2, vat_1_tax: 0.5, vat_1_gross: 7.7, vat_2_rate: 19, vat_2_net: 2, vat_2_tax: 0.38, vat_2_gross: 2.38 });
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();

    const datev = await page.evaluate(async (id) => {
      const res = await fetch(`/api/export?preset=datev&ids=${id}`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
      return new TextDecoder('windows-1252').decode(await res.arrayBuffer());
    }, receipt.id);
    const [, columns, ...bookings] = parseCsv(datev, { delimiter: ';', relax_column_count: true }) as string[][];
    const field = (booking: string[], name: string) => booking[columns!.indexOf(name)];
    // The default SKR03 keys: 8 for 7 %, 9 for 19 %.
    expect(bookings.map((b) => [field(b, 'Umsatz (ohne Soll/Haben-Kz)'), field(b, 'BU-Schlüssel')])).toEqual([
      ['7,70', '8'],
      ['2,38', '9'],
    ]);

    // Gone again: the tests after this one count the receipts.
    const removed = await page.evaluate(async (id) => (await fetch(`/api/uploads/${id}`, { method: 'DELETE', headers: { 'X-Requested-With': 'XMLHttpRequest' } })).status, receipt.uploadId);
    expect(removed).toBe(204);
  });

  it('serves the app’s scripts and styles compressed, and no page shifts its layout by 0.1 or more, on a desktop or a phone', async () => {
    const assets: Array<{ url: string; encoding?: string; bytes: number }> = [];
    const onResponse = async (res: import('playwright-core').Response) => {
      if (!/\/assets\/.+\.(js|css)$/.test(res.url())) return;
      const sizes = await res.request().sizes();
      assets.push({ url: res.url(), encoding: (await res.allHeaders())['content-encoding'], bytes: sizes.responseBodySize });
    };
    page.on('response', onResponse);
    const shifts: Record<string, number> = {};
    const moved: Record<string, string[]> = {};
    const screens = [
      ['desktop', { width: 1280, height: 900 }],
      ['phone', { width: 375, height: 812 }],
    ] as const;
    try {
      for (const [device, viewport] of screens) {
        await page.setViewportSize(viewport);
        for (const route of ['/', '/dashboard', '/receipts', '/review', '/pricing', '/account', '/features']) {
          const key = `${route} (${device})`;
          // A fresh load each time: the shifts a person sees arriving at the page.
          await page.goto(`${deployment.baseUrl}${route}`, { waitUntil: 'networkidle' });
          await page.waitForTimeout(500);
          // Lighthouse's CLS, upper bound: every shift not caused by input, summed.
          [shifts[key], moved[key]] = await page.evaluate(
            () =>
              new Promise<[number, string[]]>((resolve) => {
                let total = 0;
                const what = new Set<string>();
                type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Array<{ node?: Node }> };
                new PerformanceObserver((list) => {
                  for (const entry of list.getEntries() as Shift[]) {
                    if (entry.hadRecentInput) continue;
                    total += entry.value;
                    for (const { node } of entry.sources) if (node instanceof Element) what.add(`${node.tagName.toLowerCase()}.${Array.from(node.classList).join('.')}`);
                  }
                }).observe({ type: 'layout-shift', buffered: true });
                setTimeout(() => resolve([total, [...what]]), 200);
              }),
          );
        }
      }
    } finally {
      page.off('response', onResponse);
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    console.log(`layout shift per page: ${JSON.stringify(shifts)}; what moved: ${JSON.stringify(moved)}`);
    console.log(`assets: ${assets.length}, ${assets.filter((a) => a.encoding === 'br').length} as Brotli, ${Math.round(assets.reduce((s, a) => s + a.bytes, 0) / 1024)} KB sent`);
    expect(assets.length).toBeGreaterThan(0);
    expect(assets.filter((a) => a.bytes > 1024 && a.encoding !== 'br')).toEqual([]);
    expect(Object.entries(shifts).filter(([, shift]) => shift >= 0.1)).toEqual([]);
  });

  it('the pricing page marks a subscriber’s plan, and no label overflows its button', async () => {
    await page.goto(`${deployment.baseUrl}/pricing`);
    await expect(page.getByText('Current plan', { exact: true }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Upgrade to Business' }).click();
    await page.waitForURL(`${deployment.baseUrl}/pricing?test=success`);
    await page.goto(`${deployment.baseUrl}/pricing`);
    const business = page.getByTestId('plan-business');
    await business.getByText('Current plan', { exact: true }).waitFor();
    await expect(business.getAttribute('aria-current')).resolves.toBe('true');
    await expect(business.getByRole('button', { name: 'Your current plan' }).isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('plan-starter').getByRole('button').textContent()).resolves.toBe('Switch to Starter');
    await expect(page.getByTestId('plan-enterprise').getByRole('button').textContent()).resolves.toBe('Upgrade to Enterprise');
    const overflowing = await page.locator('.plan .btn').evaluateAll((buttons) => buttons.filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent));
    expect(overflowing).toEqual([]);
    // A subscriber whose plan is active does see the success page; with no payment taken (billing test mode), it says so.
    await page.goto(`${deployment.baseUrl}/success`);
    await page.getByRole('heading', { name: 'Plan activated' }).waitFor();
    await page.getByText('Test mode: no payment was taken on this server.').waitFor();
    await expect(page.getByText('Payment Successful').count()).resolves.toBe(0);
    await page.getByText('Business', { exact: true }).first().waitFor();
  });

  it('the review inbox goes through the receipts that need a person by keyboard alone, and on a phone', async () => {
    await page.goto(`${deployment.baseUrl}/`);
    await page.getByTestId('file-input').setInputFiles(INBOX.map(file));
    for (const name of INBOX) await row(name).locator('[data-testid="upload-status"]', { hasText: 'Completed' }).waitFor({ timeout: 180_000 });
    try {
      await reviewInbox();
    } finally {
      // The later tests count the first two receipts only.
      await page.setViewportSize({ width: 1280, height: 900 });
      for (const name of INBOX) {
        const { id } = await detailOf(name);
        const status = await page.evaluate((receipt) => fetch(`/api/receipts/${receipt}`, { method: 'DELETE', headers: { 'X-Requested-With': 'XMLHttpRequest' } }).then((r) => r.status), id);
        expect(status).toBe(204);
      }
    }
  });

  async function reviewInbox(): Promise<void> {
    const waiting = async () => (await page.evaluate(async () => ((await (await fetch('/api/receipts?valid=false&pageSize=1')).json()) as { total: number }).total));
    const before = await waiting();
    expect(before).toBeGreaterThanOrEqual(2);
    // The nav counts them.
    await page.getByRole('link', { name: `Review, ${before} receipt${before === 1 ? '' : 's'} waiting` }).waitFor();

    await page.goto(`${deployment.baseUrl}/review`);
    const shown = page.locator('.review-bar p');
    await shown.filter({ hasText: /^Receipt 1 of \d+/ }).waitFor();
    // → until the first inbox receipt shows.
    for (let i = 0; i < before && !(await shown.textContent())!.includes(INBOX[0]!); i++) {
      await page.keyboard.press('ArrowRight');
      await page.waitForTimeout(100);
    }
    await shown.filter({ hasText: INBOX[0]! }).waitFor();
    await page.getByRole('button', { name: `Accept: ${OUT_OF_RANGE}` }).waitFor();
    // C corrects, starting at a doubtful field; Escape drops what was typed and stays on the receipt.
    await page.keyboard.press('c');
    const form = page.getByRole('form', { name: 'Correct the receipt' });
    await form.waitFor();
    const focused = () =>
      page.evaluate(() => {
        const field = document.activeElement as HTMLInputElement;
        return { id: field.id, value: field.value, doubtful: field.getAttribute('aria-invalid') === 'true' };
      });
    const start = await focused();
    expect(start.doubtful).toBe(true);
    await page.keyboard.type('1234');
    expect((await focused()).value).not.toBe(start.value);
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await shown.filter({ hasText: INBOX[0]! }).waitFor();
    await page.keyboard.press('c');
    await expect(form.locator(`#${start.id}`).inputValue()).resolves.toBe(start.value);
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await page.screenshot({ path: screenshotPath('review-inbox') });
    // A accepts every flag of this receipt: it leaves the inbox.
    await page.keyboard.press('a');
    await toastWith(`${INBOX[0]} is ready for export.`).waitFor();
    await expect.poll(waiting).toBe(before - 1);
    const first = await detailOf(INBOX[0]!);
    expect(first.valid).toBe(true);
    expect(first.acceptedIssues).toEqual(expect.arrayContaining([{ issue: OUT_OF_RANGE, userId: expect.any(String), at: expect.any(String) }]));

    // One kind of flag on every receipt, after a confirmation; by keyboard: focus, Enter, Tab to confirm.
    const kind = page.getByRole('region', { name: 'Accept one kind of flag on every receipt' }).locator('li', { hasText: OUT_OF_RANGE }).getByRole('button');
    await kind.focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Accept this flag on every receipt?' });
    await confirm.waitFor();
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toMatch(/^Accept on \d+ receipts?$/);
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(async () => (await detailOf(INBOX[1]!)).acceptedIssues?.map((a) => a.issue)).toContain(OUT_OF_RANGE);

    // On a phone: the inbox fits the width, the picture above the fields.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${deployment.baseUrl}/review`);
    await page.getByRole('heading', { name: 'Review', exact: true }).waitFor();
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(375);
    await page.screenshot({ path: screenshotPath('review-inbox-phone'), fullPage: true });
  }

  it('the account page changes the e-mail and the password, end to end', async () => {
    await page.goto(`${deployment.baseUrl}/dashboard`);
    await page.getByRole('button', { name: /Account menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Account' }).click();
    await page.waitForURL(`${deployment.baseUrl}/account`);
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    await page.screenshot({ path: screenshotPath('account'), fullPage: true });

    const email = page.locator('#email-form');
    await email.getByLabel('New e-mail').fill(NEW_EMAIL);
    await email.getByLabel('Current password', { exact: true }).fill('WrongPassword1');
    await email.getByRole('button', { name: 'Change e-mail' }).click();
    await toastWith('The current password is not correct.').waitFor();
    await email.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await email.getByRole('button', { name: 'Change e-mail' }).click();
    await page.getByTestId('account-email').filter({ hasText: NEW_EMAIL }).waitFor();

    const password = page.locator('#password-form');
    await password.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await password.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await password.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
    await password.getByRole('button', { name: 'Change password' }).click();
    await toastWith('Your password has been changed.').waitFor();

    await page.evaluate(() => fetch('/api/auth/logout', { method: 'POST', headers: { 'X-Requested-With': 'XMLHttpRequest' } }));
    await signIn(NEW_EMAIL, PASSWORD);
    await toastWith('Invalid email or password').waitFor();
    await signIn(NEW_EMAIL, NEW_PASSWORD);
    await page.waitForURL(`${deployment.baseUrl}/dashboard`);
  });

  it('downloads all the data as a zip, then deletes the account, end to end', async () => {
    await page.goto(`${deployment.baseUrl}/account`);
    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data (.zip)' }).click()]);
    expect(zip.suggestedFilename()).toMatch(/^receipts-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const saved = path.join(dir, 'data.zip');
    await zip.saveAs(saved);
    const archive = await JSZip.loadAsync(await readFile(saved));
    const names = Object.keys(archive.files).sort();
    expect(names).toEqual(expect.arrayContaining(['account.json', 'receipts.xlsx']));
    expect(names.filter((n) => n.startsWith('originals/')).map((n) => n.replace(/^originals\/\d{4}-\d{2}-\d{2}_[0-9a-f]{8}_/, '')).sort()).toEqual([FRESH, OLD].sort());
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await archive.file('receipts.xlsx')!.async('nodebuffer')) as unknown as ExcelJS.Buffer);
    expect(rowsOf(workbook.getWorksheet('Receipts')!).map((r) => r.filename)).toContain(OLD);

    const danger = page.locator('.account-danger');
    await danger.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await danger.getByRole('checkbox').check();
    await danger.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(`${deployment.baseUrl}/`);
    await toastWith('Your account and all its data have been deleted.').waitFor();
    await signIn(NEW_EMAIL, NEW_PASSWORD);
    await toastWith('Invalid email or password').waitFor();
  });
});
