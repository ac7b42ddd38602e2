// The built web app in Debian's Chromium against the real api + worker (embedded mode).
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createReceiptQueue, createRedis } from '@receipts/infra';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, launchChromium, screenshotPath } from './support/browser.js';
import { Deployment } from './support/deployment.js';
import { writeMadeUpReceipts } from './support/printed-receipt.js';
import { repoRoot } from './support/service-process.js';
import { startSmtpSink, tokenIn, type SmtpSink } from './support/smtp-sink.js';

/** Made-up receipts the test prints (receipt-N.jpg), each its own shop, date and total. */
const names = (from: number, count: number) => Array.from({ length: count }, (_, i) => `receipt-${from + i}.jpg`);
const RECEIPTS = names(1, 6);
/** Uploaded after signing up, so their rows are not confused with the anonymous ones. */
const MORE_RECEIPTS = names(7, 3);
/** A subscriber's batch. */
const BATCH = names(10, 10);
let receiptsDir: string;
const file = (name: string) => path.join(receiptsDir, name);

let deployment: Deployment;
let smtp: SmtpSink;
let browser: Browser;
let visitor: BrowserContext;
let home: Page;

/** Records every percentage each upload row shows, as the DOM changes (so live steps are seen, not inferred). */
async function recordProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<string, number[]> = {};
    (window as unknown as { __progress: typeof seen }).__progress = seen;
    const scan = () => {
      for (const row of Array.from(document.querySelectorAll('[data-testid="upload-row"]'))) {
        const name = row.getAttribute('aria-label') ?? '';
        const value = Number.parseInt(row.querySelector('[data-testid="upload-progress"]')?.textContent ?? '', 10);
        const list = (seen[name] ??= []);
        if (list.at(-1) !== value) list.push(value);
      }
    };
    new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

const row = (page: Page, name: string) => page.locator(`[data-testid="upload-row"][aria-label="${name}"]`);

/**
 * Waits for the row of `name` to show Completed. When it does not, the failure says what the row
 * showed, what the server holds for the upload and the service's last warnings: a CI run prints
 * only its failures' messages.
 */
async function untilCompleted(page: Page, name: string): Promise<void> {
  try {
    await row(page, name).locator('[data-testid="upload-status"]', { hasText: 'Completed' }).waitFor({ timeout: 240_000 });
  } catch (err) {
    const shown = await row(page, name).textContent({ timeout: 1000 }).catch(() => '(no row)');
    const held = await page
      .evaluate(async () => (await (await fetch('/api/uploads')).json()) as Array<Record<string, unknown>>)
      .then((list) => list.filter((u) => u.filename === name).map(({ status, step, progress, error, createdAt }) => ({ status, step, progress, error, createdAt })))
      .catch((e: unknown) => `(not read: ${(e as Error).message})`);
    const warnings = deployment.output().split('\n').filter((l) => /"level":(40|50|60)/.test(l)).slice(-8);
    throw new Error(`${name} did not complete: the row shows "${shown}"; the server holds ${JSON.stringify(held)}; last service warnings:\n${warnings.join('\n')}`, { cause: err });
  }
}

describe('the web app in a real browser', () => {
  beforeAll(async () => {
    if (!existsSync(path.join(repoRoot, 'web/dist/index.html'))) throw new Error('web/dist is missing: run npm run build first');
    receiptsDir = await mkdtemp(path.join(os.tmpdir(), 'web-receipts-'));
    await writeMadeUpReceipts(receiptsDir, [...RECEIPTS, ...MORE_RECEIPTS, ...BATCH]);
    smtp = await startSmtpSink();
    deployment = await Deployment.start('pglite', { SMTP_URL: smtp.url });
    browser = await launchChromium();
    visitor = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
    home = await visitor.newPage();
  });

  // A failed step leaves a picture of the page and the rows it showed, to see what went wrong.
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail' || !home || home.isClosed()) return;
    await home.screenshot({ path: screenshotPath(`failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`), fullPage: true });
    const rows = await home.locator('[data-testid="upload-row"]').evaluateAll((els) => els.map((el) => `${el.getAttribute('aria-label')}: ${el.textContent}`));
    // The service's warnings and errors say why a row stopped (a failed job, a lapsed lock, …).
    const log = deployment.output();
    const problems = log.split('\n').filter((l) => /"level":(40|50|60)/.test(l));
    // The whole log beside the picture: the lines before a warning say what led to it.
    const logFile = path.join(artifactsDir, `failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}.log`);
    await writeFile(logFile, log);
    console.log(`rows when "${task.name}" failed:\n${rows.join('\n')}\nservice warnings:\n${problems.slice(-40).join('\n')}\nservice log: ${logFile}`);
  });

  afterAll(async () => {
    await browser?.close();
    await deployment?.stop();
    await smtp?.close();
  });

  it("a new visitor's first page load gives the visitor one identity, not one per request", async () => {
    // Before the fix the first load's five requests went out together without a cookie and came
    // back with five identities: an upload could be made as one while the live socket listened as
    // another (CI's upload that never showed Completed, though the worker had stored it).
    const context = await browser.newContext();
    const page = await context.newPage();
    const identities = new Set<string>();
    page.on('response', (res) => {
      res.headerValue('set-cookie').then(
        (cookies) => {
          for (const c of (cookies ?? '').split('\n')) if (c.startsWith('rsid=')) identities.add(c.split(';')[0]!);
        },
        // Headers still being read when the context closes cannot be read any more (an unhandled
        // rejection in a clean-clone run); the identities are those of the answers read before.
        () => undefined,
      );
    });
    await page.goto(`${deployment.baseUrl}/`);
    await page.getByTestId('quota-badge').filter({ hasText: '0/5 used today' }).waitFor();
    await page.waitForLoadState('networkidle');
    await context.close();
    expect(identities.size).toBe(1);
  });

  it('an anonymous visitor drops 3 receipts and watches each reach 100 % live, in two tabs', async () => {
    await home.goto(`${deployment.baseUrl}/`);
    await expect(home.getByRole('heading', { name: 'Try it now - Upload a receipt' }).isVisible()).resolves.toBe(true);
    await home.getByTestId('quota-badge').filter({ hasText: '0/5 used today' }).waitFor();
    await recordProgress(home);
    await home.getByTestId('file-input').setInputFiles(RECEIPTS.slice(0, 3).map(file));
    // A second tab of the same visitor shows the same uploads, kept live by its own socket.
    const secondTab = await visitor.newPage();
    await secondTab.goto(`${deployment.baseUrl}/`);
    for (const page of [home, secondTab]) {
      for (const name of RECEIPTS.slice(0, 3)) {
        await untilCompleted(page, name);
        await expect(row(page, name).getByTestId('upload-progress').textContent()).resolves.toBe('100%');
      }
    }
    const seen = await home.evaluate(() => (window as unknown as { __progress: Record<string, number[]> }).__progress);
    for (const name of RECEIPTS.slice(0, 3)) {
      const steps = seen[name] ?? [];
      expect(steps.at(-1), `${name}: ${steps.join(' → ')}`).toBe(100);
      expect(steps.some((p) => p > 0 && p < 100), `${name} showed no step between 0 and 100: ${steps.join(' → ')}`).toBe(true);
      expect([...steps].sort((a, b) => a - b), 'progress only moves forward').toEqual(steps);
    }
    await home.getByTestId('quota-badge').filter({ hasText: '3/5 used today' }).waitFor();
    await secondTab.close();
    await home.screenshot({ path: screenshotPath('home'), fullPage: true });
  });

  it('opens Receipt Details, traps focus in it and returns focus on close', async () => {
    const details = row(home, RECEIPTS[0]!).getByRole('button', { name: 'Details' });
    await details.click();
    const dialog = home.getByRole('dialog', { name: 'Receipt Details' });
    await dialog.waitFor();
    await expect(dialog.getByRole('heading', { name: 'Raw OCR text' }).isVisible()).resolves.toBe(true);
    await expect(dialog.getByText('Currency').first().isVisible()).resolves.toBe(true);
    await home.screenshot({ path: screenshotPath('details-modal') });
    for (let i = 0; i < 15; i += 1) {
      await home.keyboard.press('Tab');
      await expect(home.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).resolves.toBe(true);
    }
    await home.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect(details.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
  });

  it('exports the completed receipts as a workbook with the three sheets', async () => {
    const [download] = await Promise.all([home.waitForEvent('download'), home.getByRole('button', { name: 'Export completed' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const saved = path.join(path.dirname(screenshotPath('x')), 'export.xlsx');
    await download.saveAs(saved);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(saved);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Receipts', 'Validation Issues', 'Summary']);
    const receiptsSheet = workbook.getWorksheet('Receipts')!;
    const issuesSheet = workbook.getWorksheet('Validation Issues')!;
    // Every completed receipt lands on one of the two sheets (header row excluded).
    expect(receiptsSheet.actualRowCount - 1 + (issuesSheet.actualRowCount - 1)).toBe(3);
  });

  it('a 6th upload shows the limit message and the sign-up prompt', async () => {
    await home.getByTestId('file-input').setInputFiles(RECEIPTS.slice(3, 6).map(file));
    const failed = home.locator('[data-testid="upload-row"][data-status="error"]');
    await failed.filter({ hasText: 'Daily limit of 5 receipts exceeded. Sign up for more!' }).waitFor({ timeout: 60_000 });
    await expect(failed.count()).resolves.toBe(1);
    await expect(failed.locator('.error-text').evaluate((el) => getComputedStyle(el).color)).resolves.toBe('rgb(192, 38, 45)');
    const prompt = home.getByTestId('limit-prompt');
    await prompt.waitFor();
    await expect(prompt.getByRole('link', { name: 'Sign up free' }).isVisible()).resolves.toBe(true);
    await expect(home.getByRole('button', { name: 'Choose files' }).isDisabled()).resolves.toBe(true);
  });

  it('register, sign in unconfirmed, confirm the address by the mailed link, and reach the dashboard with Daily Usage', async () => {
    const email = 'browser.user@example.com';
    await home.goto(`${deployment.baseUrl}/register`);
    await home.getByRole('button', { name: 'Create account' }).click();
    await home.getByText('Please enter a valid email address').waitFor();
    await home.getByLabel('Email').fill(email);
    await home.getByLabel('Password', { exact: true }).fill('Secret123');
    await home.getByLabel('Confirm password', { exact: true }).fill('Secret124');
    await home.getByRole('button', { name: 'Create account' }).click();
    await home.getByText("Passwords don't match").waitFor();
    await home.getByLabel('Confirm password', { exact: true }).fill('Secret123');
    await home.getByRole('button', { name: 'Create account' }).click();
    // Registering signs nobody in: the page says where the link went and offers sign-in.
    await home.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await home.getByText(email, { exact: true }).waitFor();
    await home.screenshot({ path: screenshotPath('register-check-email') });
    // The account is made after the answer, before its mail goes out: once the mail is here, the
    // account is too (a person reading the screen and typing takes longer than that).
    await smtp.mailsTo(email, 1);
    await home.getByRole('link', { name: 'Sign In', exact: true }).click();
    await home.waitForURL(`${deployment.baseUrl}/login`);
    await home.getByLabel('Email').fill(email);
    await home.getByLabel('Password', { exact: true }).fill('Secret123');
    await home.getByRole('button', { name: 'Sign in' }).click();
    await home.waitForURL(`${deployment.baseUrl}/dashboard`);

    // Unconfirmed: the banner says what the account may do, and its allowance is the one this
    // address used up anonymously above.
    const banner = home.getByTestId('verify-banner');
    await banner.getByText('Confirm your e-mail address.').waitFor();
    await home.getByTestId('usage-value').filter({ hasText: '5/5' }).waitFor();
    await banner.getByRole('button', { name: 'Resend verification e-mail' }).click();
    await home.getByText(`A new confirmation link is on its way to ${email}.`, { exact: true }).waitFor();
    await home.screenshot({ path: screenshotPath('verify-banner') });
    const [, resent] = await smtp.mailsTo(email, 2);
    await home.goto(`${deployment.baseUrl}/verify-email?token=${tokenIn(resent!, 'verify-email')}`);
    await home.getByRole('heading', { name: 'E-mail Address Confirmed' }).waitFor();
    await home.getByRole('link', { name: 'Go to Dashboard' }).click();
    await home.waitForURL(`${deployment.baseUrl}/dashboard`);
    await home.getByRole('heading', { name: 'Daily Usage' }).waitFor();
    await home.getByText(/^Welcome( back)?, browser\.user/).waitFor();
    await home.getByTestId('usage-value').filter({ hasText: '0/5' }).waitFor();
    await expect(banner.count()).resolves.toBe(0);
    await home.screenshot({ path: screenshotPath('dashboard'), fullPage: true });
  });

  it('the library lists the receipts the visitor made before signing up', async () => {
    await home.goto(`${deployment.baseUrl}/receipts`);
    await home.getByRole('heading', { name: 'My Receipts' }).waitFor();
    const uploads = await home.evaluate(async () => (await (await fetch('/api/uploads')).json()) as Array<{ status: string }>);
    const completed = uploads.filter((u) => u.status === 'completed').length;
    expect(completed).toBeGreaterThanOrEqual(3);
    await home.getByText(`${completed} receipts`, { exact: true }).waitFor();
    await expect(home.locator('.library-table tbody tr').count()).resolves.toBe(completed);
  });

  it('removing a queued upload cancels it on the server and returns its quota unit', async () => {
    // The queue paused, so the upload is sure to be waiting when its Cancel is clicked (on a loaded
    // machine a worker could otherwise finish it first, and a finished receipt is not cancelled).
    const connection = createRedis(deployment.services.redisUrl);
    const queue = createReceiptQueue(connection, deployment.services.prefix);
    await queue.pause();
    try {
      await home.goto(`${deployment.baseUrl}/`);
      await home.getByTestId('quota-badge').filter({ hasText: '0/5 used today' }).waitFor();
      await home.getByTestId('file-input').setInputFiles(MORE_RECEIPTS.map(file));
      const name = MORE_RECEIPTS[1]!;
      await row(home, name).and(home.locator('[data-status="queued"]')).waitFor({ timeout: 60_000 });
      await row(home, name).getByRole('button', { name: `Cancel ${name}` }).click();
      await row(home, name).waitFor({ state: 'detached' });
      const uploads = await home.evaluate(async () => (await (await fetch('/api/uploads')).json()) as Array<{ filename: string; status: string }>);
      expect(uploads.filter((u) => u.filename === name).map((u) => u.status)).toEqual(['cancelled']);
      await home.getByTestId('quota-badge').filter({ hasText: '2/5 used today' }).waitFor({ timeout: 60_000 });
      expect(await home.evaluate(() => document.querySelector('script[src*="googletagmanager"]'))).toBeNull();
    } finally {
      await queue.resume();
      await queue.close();
      connection.disconnect();
    }
    // The other two go on once the queue runs again.
    for (const other of [MORE_RECEIPTS[0]!, MORE_RECEIPTS[2]!]) await untilCompleted(home, other);
  });

  it('pricing → subscribe in test mode lands on /pricing?test=success', async () => {
    await home.goto(`${deployment.baseUrl}/pricing`);
    await home.screenshot({ path: screenshotPath('pricing'), fullPage: true });
    await home.getByRole('button', { name: 'Upgrade to Business' }).click();
    await home.waitForURL(`${deployment.baseUrl}/pricing?test=success`);
    await home.getByTestId('test-success').waitFor();
    await home.goto(`${deployment.baseUrl}/dashboard`);
    await home.getByRole('heading', { name: 'Monthly Usage' }).waitFor();
    await home.getByText('Express Lane').waitFor();
  });

  it('a subscriber drops 10 receipts at once: the rows survive a reload mid-batch and all end completed', async () => {
    const batch = BATCH;
    await home.goto(`${deployment.baseUrl}/`);
    await home.getByTestId('file-input').setInputFiles(batch.map(file));
    const rowsOf = (page: Page) => page.locator(batch.map((n) => `[data-testid="upload-row"][aria-label="${n}"]`).join(', '));
    await rowsOf(home).locator('[data-testid="upload-status"]', { hasText: 'Completed' }).first().waitFor({ timeout: 240_000 });
    // Mid-batch: some are done, the rest still waiting or being read when the page reloads.
    const open = await rowsOf(home).evaluateAll((rows) => rows.filter((r) => r.getAttribute('data-status') !== 'completed').length);
    expect(open).toBeGreaterThan(0);
    await home.reload();
    await recordProgress(home);
    for (const name of batch) await row(home, name).waitFor();
    await expect(rowsOf(home).count()).resolves.toBe(10);
    for (const name of batch) {
      await untilCompleted(home, name);
    }
    const seen = await home.evaluate(() => (window as unknown as { __progress: Record<string, number[]> }).__progress);
    // After the reload the rows still moved live: some showed a step short of 100 before completing.
    expect(batch.some((name) => (seen[name] ?? []).some((p) => p < 100))).toBe(true);
  });

  it('a subscriber chooses a whole folder: its receipts, in its folders too, are sent, and its other files left out', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'receipts-folder-'));
    await mkdir(path.join(folder, 'march'));
    // Receipts of their own: the same bytes as an earlier upload would come back as uploaded before.
    await writeMadeUpReceipts(folder, ['folder-a.jpg'], 40);
    await writeMadeUpReceipts(path.join(folder, 'march'), ['folder-b.jpg'], 41);
    await writeFile(path.join(folder, 'notes.txt'), 'not a receipt');
    await home.goto(`${deployment.baseUrl}/`);
    await home.getByTestId('folder-input').setInputFiles(folder);
    await home.getByRole('status').filter({ hasText: '2 receipts from the folder; 1 other file left out.' }).waitFor();
    for (const name of ['folder-a.jpg', 'folder-b.jpg']) await untilCompleted(home, name);
    await expect(row(home, 'notes.txt').count()).resolves.toBe(0);
  });

  it('the API reference at /docs/api renders the document’s operations, under the site’s CSP', async () => {
    const page = await visitor.newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') refused.push(message.text());
    });
    await page.goto(`${deployment.baseUrl}/docs/api`);
    await page.getByText('Receipts API', { exact: false }).first().waitFor();
    await page.getByText('Upload a receipt').first().waitFor();
    await page.getByText('/api/receipts/{id}', { exact: true }).first().waitFor();
    expect(refused).toEqual([]);
    await page.close();
  });

  it('an unknown path shows Page Not Found', async () => {
    await home.goto(`${deployment.baseUrl}/nope`);
    await home.getByRole('heading', { name: 'Page Not Found' }).waitFor();
  });

  it('the mobile menu opens and closes at 375 px', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 } });
    const page = await phone.newPage();
    await page.goto(`${deployment.baseUrl}/`);
    await page.getByRole('heading', { name: 'Try it now - Upload a receipt' }).waitFor();
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(375);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#mobile-menu');
    await menu.waitFor();
    await page.screenshot({ path: screenshotPath('mobile-menu') });
    await page.getByRole('button', { name: 'Close menu' }).click();
    await menu.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL(`${deployment.baseUrl}/pricing`);
    await menu.waitFor({ state: 'detached' });
    await phone.close();
  });
});
