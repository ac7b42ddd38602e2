// Spending at a glance in Debian's Chromium against the built service (embedded mode: PGlite):
// a user uploads receipts, corrects them to known figures, and reads the charts.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Spending } from '@receipts/common';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshotPath } from './support/browser.js';
import { signUp } from './support/accounts.js';
import { Deployment } from './support/deployment.js';
import { madeUpReceipts } from './support/printed-receipt.js';
import { repoRoot } from './support/service-process.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { uniqueIp, Visitor } from './support/visitor.js';

/** What each uploaded receipt is corrected to; the last one lies before the library range the test picks. */
const RECEIPTS = [
  { merchantName: 'Sunrise Bakery', currency: 'EUR', date: '2023-03-04', category: 'grocery', total: 12.5 },
  { merchantName: 'Riverside Cafe', currency: 'EUR', date: '2023-03-18', category: 'restaurant', total: 30 },
  { merchantName: 'Sunrise Bakery', currency: 'EUR', date: '2023-05-02', category: 'grocery', total: 7.25 },
  { merchantName: 'Shell', currency: 'USD', date: '2023-04-10', category: 'gas', total: 45 },
  { merchantName: 'Old Shop', currency: 'EUR', date: '2022-11-30', category: 'retail', total: 100 },
];

let deployment: Deployment;
let browser: Browser;
let user: Visitor;
let context: BrowserContext;
let page: Page;
let smtp: SmtpSink;

/** A browser context signed in as the test's user (their session cookie), with motion reduced so the charts are drawn at once. */
async function signedInContext(viewport: { width: number; height: number }): Promise<BrowserContext> {
  const ctx = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  const [name, value] = user.cookie.split('=') as [string, string];
  await ctx.addCookies([{ name, value, url: deployment.baseUrl }]);
  return ctx;
}

const panel = (p: Page) => p.locator('section.spending');
const figure = (p: Page, title: string) => panel(p).getByRole('figure', { name: title });
/** A table's body rows as cell texts. */
const tableRows = (p: Page, title: string) =>
  figure(p, title).locator('tbody tr').evaluateAll((rows) => rows.map((r) => Array.from(r.children, (c) => c.textContent?.trim() ?? '')));

describe('spending at a glance in a real browser', () => {
  beforeAll(async () => {
    if (!existsSync(path.join(repoRoot, 'web/dist/index.html'))) throw new Error('web/dist is missing: run npm run build first');
    smtp = await startSmtpSink();
    deployment = await Deployment.start('pglite', { SMTP_URL: smtp.url });
    browser = await launchChromium();

    // The real path: sign up, upload printed receipts, let the worker read them, then correct each to known figures.
    user = new Visitor(deployment.baseUrl, uniqueIp());
    await signUp(user, smtp, 'spender@example.com', 'Spender1234');
    const files = await madeUpReceipts(RECEIPTS.length);
    const uploads = await Promise.all(files.map((bytes, i) => user.upload(bytes, `receipt-${i + 1}.jpg`, '?wait=1')));
    expect(uploads.map((u) => u.body.status)).toEqual(RECEIPTS.map(() => 'completed'));
    const { body: library } = await user.json<{ items: Array<{ id: string; filename: string }> }>('/api/receipts?pageSize=50');
    for (const [i, fields] of RECEIPTS.entries()) {
      const receipt = library.items.find((r) => r.filename === `receipt-${i + 1}.jpg`)!;
      const patched = await user.json(`/api/receipts/${receipt.id}`, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(fields) });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    }
    context = await signedInContext({ width: 1280, height: 900 });
    page = await context.newPage();
  });

  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail' || !page || page.isClosed()) return;
    await page.screenshot({ path: screenshotPath(`failed-spending-${task.name.replace(/\W+/g, '-').slice(0, 50)}`), fullPage: true });
  });

  afterAll(async () => {
    await browser?.close();
    await deployment?.stop();
    await smtp?.close();
  });

  it('the api sums per currency, never across', async () => {
    const { status, body } = await user.json<Spending>('/api/receipts/spending?from=2023-01-01&to=2023-12-31');
    expect(status).toBe(200);
    expect(body.currencies.map((c) => [c.currency, c.total, c.receipts])).toEqual([
      ['EUR', 49.75, 3],
      ['USD', 45, 1],
    ]);
    expect(body.currencies[0]!.months).toEqual([
      { month: '2023-03', total: 42.5, receipts: 2 },
      { month: '2023-04', total: 0, receipts: 0 },
      { month: '2023-05', total: 7.25, receipts: 1 },
    ]);
    // Answered by the spending route, not taken for a receipt id.
    const refused = await user.json<{ error: string }>('/api/receipts/spending?from=March');
    expect(refused).toEqual({ status: 400, body: { error: 'VALIDATION_FAILED', message: 'Dates are written YYYY-MM-DD' } });
  });

  it('the first page does not load the charts; the dashboard does, empty for the last 12 months', async () => {
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('spending-charts')) chunks.push(r.url());
    });
    await page.goto(`${deployment.baseUrl}/`);
    await page.getByRole('heading', { name: 'Try it now - Upload a receipt' }).waitFor();
    expect(chunks).toEqual([]);
    await page.goto(`${deployment.baseUrl}/dashboard`);
    await panel(page).getByRole('heading', { name: 'Spending at a glance' }).waitFor();
    // Every receipt is dated 2022-2023: nothing in the last 12 months.
    await panel(page).getByTestId('spending-empty').waitFor();
    expect(chunks.length).toBeGreaterThan(0);
  });

  it('the dashboard shows all time per currency, the one with most receipts first, and switches currency', async () => {
    await panel(page).getByLabel('Range').selectOption({ label: 'All time' });
    const currencies = panel(page).getByRole('group', { name: 'Currency' }).getByRole('button');
    await currencies.first().filter({ hasText: 'EUR €149.75' }).waitFor();
    await expect(currencies.allTextContents()).resolves.toEqual(['EUR €149.75', 'USD $45.00']);
    await expect(panel(page).getByTestId('spending-total').textContent()).resolves.toBe('€149.75 across 4 receipts in EUR (currencies are never added together).');
    // Four charts drawn, each titled, each with a sentence for screen readers.
    await expect(panel(page).locator('figure svg.recharts-surface').count()).resolves.toBe(4);
    await figure(page, 'Spending per category').getByRole('img', { name: 'Spending per category in EUR: Retail €100.00, Restaurant €30.00, Grocery €19.75.', exact: true }).waitFor();
    await expect(figure(page, 'Spending per merchant').locator('.recharts-bar-rectangle').count()).resolves.toBe(3);
    await page.screenshot({ path: screenshotPath('spending-dashboard'), fullPage: true });
    // Nov 2022 to May 2023, the empty months in between drawn as 0.
    await panel(page).getByRole('button', { name: 'Show as tables' }).click();
    const months = await tableRows(page, 'Spending per month');
    expect(months.map((r) => r[0])).toEqual(['Nov 2022', 'Dec 2022', 'Jan 2023', 'Feb 2023', 'Mar 2023', 'Apr 2023', 'May 2023']);
    expect(months.find((r) => r[0] === 'Mar 2023')).toEqual(['Mar 2023', '2', '€42.50']);

    await currencies.filter({ hasText: 'USD' }).click();
    await expect(panel(page).getByTestId('spending-total').textContent()).resolves.toMatch(/^\$45\.00 across 1 receipt in USD/);
    await expect(tableRows(page, 'Spending per merchant')).resolves.toEqual([['Shell', '1', '$45.00']]);
  });

  it('the library charts follow its filters: the date range', async () => {
    await page.goto(`${deployment.baseUrl}/receipts`);
    await page.getByRole('heading', { name: 'My Receipts' }).waitFor();
    await page.getByLabel('From', { exact: true }).fill('2023-01-01');
    await page.getByLabel('To', { exact: true }).fill('2023-12-31');
    await page.getByRole('button', { name: 'Apply' }).click();
    await panel(page).getByTestId('spending-total').filter({ hasText: '€49.75 across 3 receipts in EUR' }).waitFor();
    await panel(page).getByRole('button', { name: 'Show as tables' }).click();
    await expect(tableRows(page, 'Spending per month')).resolves.toEqual([
      ['Mar 2023', '2', '€42.50'],
      ['Apr 2023', '0', '€0.00'],
      ['May 2023', '1', '€7.25'],
    ]);
    await expect(tableRows(page, 'Spending per category')).resolves.toEqual([
      ['Restaurant', '1', '€30.00'],
      ['Grocery', '2', '€19.75'],
    ]);
    await expect(tableRows(page, 'Spending per merchant')).resolves.toEqual([
      ['Riverside Cafe', '1', '€30.00'],
      ['Sunrise Bakery', '2', '€19.75'],
    ]);
    await expect(tableRows(page, 'Receipts per currency')).resolves.toEqual([
      ['EUR', '3', '€49.75'],
      ['USD', '1', '$45.00'],
    ]);
    await figure(page, 'Spending per month').getByRole('img', { name: 'Spending per month in EUR, Mar 2023 to May 2023: €49.75 in all, most in Mar 2023 (€42.50).', exact: true }).waitFor();
    await page.screenshot({ path: screenshotPath('spending-library'), fullPage: true });

    await page.getByLabel('From', { exact: true }).fill('2024-01-01');
    await page.getByLabel('To', { exact: true }).fill('2024-12-31');
    await page.getByRole('button', { name: 'Apply' }).click();
    await panel(page).getByTestId('spending-empty').waitFor();
  });

  it('fits a 375 px phone without sideways scrolling', async () => {
    const phone = await signedInContext({ width: 375, height: 812 });
    const small = await phone.newPage();
    await small.goto(`${deployment.baseUrl}/dashboard`);
    await panel(small).getByLabel('Range').selectOption({ label: 'All time' });
    await panel(small).getByTestId('spending-total').waitFor();
    await expect(panel(small).locator('figure svg.recharts-surface').count()).resolves.toBe(4);
    await expect(small.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(375);
    await small.screenshot({ path: screenshotPath('spending-mobile'), fullPage: true });
    await phone.close();
  });
});
