import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_SCHEMA_FILE, apiSchemaSource } from '../cli/scripts/api-schema.js';
import { signUpUnconfirmed } from './support/accounts.js';
import { Deployment } from './support/deployment.js';
import { printedReceipt } from './support/printed-receipt.js';
import { repoRoot } from './support/service-process.js';
import { uniqueIp, Visitor } from './support/visitor.js';

/** The CLI as `npx receipts` finds it: the workspace's bin link to cli/dist/receipts.cli.js. */
const RECEIPTS_BIN = path.join(repoRoot, 'node_modules/.bin/receipts');
const FILES = ['corner-shop.jpg', 'bakery.jpg', 'stationery.jpg'];
const SHOPS = ['CORNER HARDWARE TRADING', 'SUNRISE BAKERY', 'HARBOUR STATIONERY'];

/**
 * The `n`th receipt's lines: a shop, a date of the last weeks whose day cannot be read as a month
 * (13th to 28th), two items and their total. Recent, so the receipts are ready for the Receipts
 * sheet rather than flagged for their date.
 */
function receiptLines(n: number): { lines: string[]; total: number; date: string } {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() - 1);
  while (day.getUTCDate() < 15 || day.getUTCDate() > 28) day.setUTCDate(day.getUTCDate() - 1);
  day.setUTCDate(day.getUTCDate() - n);
  const [first, second] = [1.25 + n, 2.5 + 2 * n];
  const printed = `${String(day.getUTCDate()).padStart(2, '0')}/${String(day.getUTCMonth() + 1).padStart(2, '0')}/${day.getUTCFullYear()}`;
  return {
    lines: [SHOPS[n]!, `DATE ${printed} 10:2${n}`, `BREAD ${first.toFixed(2)}`, `MILK ${second.toFixed(2)}`, `TOTAL USD ${(first + second).toFixed(2)}`],
    total: first + second,
    date: day.toISOString().slice(0, 10),
  };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A receipt row of the workbook's Receipts sheet, by its column names. */
type SheetRow = Record<string, unknown>;

async function receiptsSheet(file: string): Promise<SheetRow[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.getWorksheet('Receipts')!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: SheetRow[] = [];
  sheet.eachRow((row, n) => {
    if (n > 1) rows.push(Object.fromEntries(header.map((column, i) => [column, row.getCell(i + 1).value])));
  });
  return rows;
}

describe('the receipts command-line client, built, against an api and a worker', () => {
  let deployment: Deployment;
  let work: string;
  let token: string;

  /** Runs the built CLI in `work` with a config folder of its own and nothing of this process's environment but PATH. */
  const receipts = (args: string[], env: Record<string, string> = {}) =>
    new Promise<Run>((resolve, reject) => {
      const child = spawn(process.execPath, [RECEIPTS_BIN, ...args], {
        cwd: work,
        env: { PATH: process.env.PATH ?? '', HOME: work, XDG_CONFIG_HOME: path.join(work, 'config'), ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });

  beforeAll(async () => {
    if (!existsSync(RECEIPTS_BIN)) throw new Error(`${RECEIPTS_BIN} is missing: run npm install (the cli workspace builds itself on install) or npm run build`);
    work = await mkdtemp(path.join(os.tmpdir(), 'receipts-cli-'));
    const folder = path.join(work, 'receipts');
    await mkdir(path.join(folder, 'march'), { recursive: true });
    // Three printed receipts, one in a sub-folder, beside a file the walk passes over.
    await writeFile(path.join(folder, FILES[0]!), await printedReceipt(receiptLines(0).lines, { format: 'jpeg' }));
    await writeFile(path.join(folder, FILES[1]!), await printedReceipt(receiptLines(1).lines, { format: 'jpeg' }));
    await writeFile(path.join(folder, 'march', FILES[2]!), await printedReceipt(receiptLines(2).lines, { format: 'jpeg' }));
    await writeFile(path.join(folder, 'notes.txt'), 'not a receipt');
    deployment = await Deployment.start('postgres');
  });

  afterAll(async () => {
    await deployment?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('is typed by the api document as it is now (else: npm run generate:client)', async () => {
    const res = await fetch(`${deployment.baseUrl}/api/openapi.json`);
    expect(res.status).toBe(200);
    const generated = await apiSchemaSource(await res.json());
    const committed = await readFile(API_SCHEMA_FILE, 'utf8');
    expect(committed === generated, 'cli/src/generated/api-schema.ts differs from what the api document generates: run `npm run generate:client` and commit the file').toBe(true);
  });

  describe('with a token', () => {
    beforeAll(async () => {
      // A confirmed account makes a token on its session, as the account page does.
      const email = 'cli-user@example.test';
      const owner = new Visitor(deployment.baseUrl, uniqueIp());
      await signUpUnconfirmed(owner, deployment.services.databaseUrl, email, 'Cli-user-1234');
      const db = new pg.Client({ connectionString: deployment.services.databaseUrl });
      await db.connect();
      await db.query('UPDATE users SET email_verified_at = now() WHERE email = $1', [email]);
      await db.end();
      const made = await owner.json<{ token: string }>('/api/user/tokens', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'cli test', scopes: ['receipts:read', 'receipts:write', 'export'] }),
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      token = made.body.token;
    });

    it('refuses a token the api does not know, with the api’s message, and keeps nothing', async () => {
      const run = await receipts(['login', '--token', 'rct_unknown0_' + 'x'.repeat(43), '--url', deployment.baseUrl]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^error: This access token is not valid\..* \(UNAUTHENTICATED\)\n$/);
      expect(existsSync(path.join(work, 'config/receipts/config.json'))).toBe(false);
    });

    it('logs in, uploads a folder and waits for it, exports the workbook of those receipts', async () => {
      const login = await receipts(['login', '--token', token, '--url', deployment.baseUrl]);
      expect(login.code, login.stderr).toBe(0);
      const config = path.join(work, 'config/receipts/config.json');
      expect((await stat(config)).mode & 0o777).toBe(0o600);
      expect(JSON.parse(await readFile(config, 'utf8'))).toEqual({ url: deployment.baseUrl, token });

      const upload = await receipts(['upload', 'receipts', '--wait', '--currency', 'USD']);
      expect(upload.code, upload.stdout + upload.stderr).toBe(0);
      // Not a terminal: a plain line per file uploaded and per file read, on stderr.
      expect(upload.stderr.match(/^Uploading \d\/3 /gm)).toHaveLength(3);
      expect(upload.stderr.match(/^Processing \d\/3 .*: completed$/gm)).toHaveLength(3);
      const shown = path.join('receipts', 'march', FILES[2]!);
      expect(upload.stdout).toContain('3 files, 0 failed');
      for (const file of [path.join('receipts', FILES[0]!), path.join('receipts', FILES[1]!), shown]) expect(upload.stdout).toMatch(new RegExp(`^${escape(file)}\\s+completed\\s`, 'm'));

      // What the api stored for the token's account: three uploads, each read.
      const api = (url: string) => fetch(`${deployment.baseUrl}${url}`, { headers: { Authorization: `Bearer ${token}` } });
      const uploads = (await (await api('/api/uploads')).json()) as Array<{ id: string; filename: string; status: string; receipt?: { merchantName?: string; total?: number } }>;
      expect(uploads.map((u) => u.filename).sort()).toEqual([...FILES].sort());
      expect(uploads.every((u) => u.status === 'completed')).toBe(true);
      // Each summary row shows the receipt the api read.
      for (const u of uploads) expect(upload.stdout).toMatch(new RegExp(`${escape(u.filename)}\\s+completed\\s+${escape(u.receipt!.merchantName!)}\\s.*${u.receipt!.total!.toFixed(2)} `));

      // The same folder again: the Idempotency-Keys answer with the same uploads, nothing is uploaded twice.
      const again = await receipts(['upload', 'receipts', '--currency', 'usd']);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(((await (await api('/api/uploads')).json()) as unknown[]).length).toBe(3);

      const exported = await receipts(['export', '--format', 'xlsx', '--out', 'x.xlsx']);
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).toMatch(/^Wrote x\.xlsx \(\d+\.\d kB\)\./);
      const rows = await receiptsSheet(path.join(work, 'x.xlsx'));
      const byFile = (file: string) => rows.find((r) => r.filename === file);
      expect(rows).toHaveLength(3);
      for (const [i, file] of FILES.entries()) {
        const stored = uploads.find((u) => u.filename === file)!.receipt!;
        // The printed date and total, read by the worker, in the workbook.
        const printed = receiptLines(i);
        expect(byFile(file)).toMatchObject({ merchantName: stored.merchantName, total: printed.total, date: new Date(`${printed.date}T00:00:00Z`) });
      }
    });

    it('says the api’s refusal of an export and leaves no file behind', async () => {
      const run = await receipts(['export', '--format', 'xlsx', '--from', '2030-01-01', '--out', 'empty.xlsx']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^error: .+ \(NOTHING_TO_EXPORT\)\n$/);
      expect(existsSync(path.join(work, 'empty.xlsx'))).toBe(false);
    });

    it('shows the latest uploads, and forgets the token on logout', async () => {
      const status = await receipts(['status']);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain(`api: ${deployment.baseUrl}`);
      for (const file of FILES) expect(status.stdout).toContain(file);

      expect((await receipts(['logout'])).code).toBe(0);
      const after = await receipts(['status']);
      expect(after.code).toBe(1);
      expect(after.stderr).toMatch(/^error: Not logged in\./);
      // A token in the environment needs no login.
      const fromEnv = await receipts(['status'], { RECEIPTS_TOKEN: token, RECEIPTS_URL: deployment.baseUrl });
      expect(fromEnv.code, fromEnv.stderr).toBe(0);
    });
  });
});
