import http from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  EXPORT_COLUMNS,
  ISSUE_COLUMNS,
  PIPELINE_STEPS,
  WORKBOOK_ERRORS,
  type LibraryReceipt,
  type QuotaView,
  type ReceiptDetail,
  type ReceiptList,
  type UploadView,
} from '@receipts/common';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activateSubscription, signUpUnconfirmed } from './support/accounts.js';
import { Deployment, type DeploymentMode } from './support/deployment.js';
import { printedReceipt } from './support/printed-receipt.js';
import { until } from './support/until.js';
import { uniqueIp, Visitor } from './support/visitor.js';

const PASSWORD = 'Secret123';
// Scanned Malaysian receipts; all dated 2017–2018, so they arrive "out of reasonable range".
const FILES = { majuJaya: 'majujaya.jpg', seriMurni: 'serimurni.jpg', teckLeong: 'teckleong.jpg' } as const;
/** Made-up Malaysian receipts the test prints, dated years back (out of the reasonable range until corrected). */
const PRINTED: Record<string, string[]> = {
  [FILES.majuJaya]: ['MAJU JAYA HARDWARE TRADING', 'NO 8 JALAN BESAR, KLANG', 'DATE 21/09/2017 10:20', 'STEEL NAIL RM 5.00', 'WIRE MESH RM 5.40', 'TOTAL RM 10.40'],
  // Cash less change confirms its total, so a recent date alone makes it valid.
  [FILES.seriMurni]: ['SERI MURNI CO. (M) BHD', 'DATE 09/02/2018 14:02', 'BREAD RM 4.20', 'MILK RM 5.50', 'TOTAL RM 9.70', 'CASH RM 20.00', 'CHANGE RM 10.30'],
  [FILES.teckLeong]: ['TECK LEONG HARDWARE', 'DATE 05/01/2018 09:12', 'NUTS RM 3.00', 'TOTAL RM 3.00'],
};

const json = (body: unknown): RequestInit => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
/** A day inside the spec's "reasonable range": `n` days ago. */
const daysAgo = (n: number) => new Date(Date.now() - n * 24 * 3600_000).toISOString().slice(0, 10);

async function signUp(deployment: Deployment): Promise<{ visitor: Visitor; email: string }> {
  const visitor = new Visitor(deployment.baseUrl, uniqueIp());
  const email = `library-${Math.random().toString(36).slice(2)}@example.test`;
  await signUpUnconfirmed(visitor, deployment.services.databaseUrl, email, PASSWORD);
  return { visitor, email };
}

async function processed(visitor: Visitor, file: string, name = file): Promise<string> {
  const { status, body } = await visitor.upload(await printedReceipt(PRINTED[file]!, { format: 'jpeg' }), name);
  expect(status).toBe(202);
  const end = await visitor.waitForEnd(body.id as string);
  expect(end.event).toBe('upload:completed');
  return body.id as string;
}

async function download(visitor: Visitor, query: string) {
  const res = await visitor.request(`/api/export?${query}`);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function workbookOf(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  return workbook;
}

/** A sheet's rows as arrays of cell values (exceljs rows are 1-based). */
function rowsOf(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('export and the receipts library', () => {
  let deployment: Deployment;
  let owner: Visitor;
  let stranger: Visitor;
  let email: string;
  /** Library entries by file, refreshed by `library()`. */
  const byFile: Record<string, LibraryReceipt> = {};
  let duplicateUploadId: string;

  const library = async (query = '') => {
    const { status, body } = await owner.json<ReceiptList>(`/api/receipts${query}`);
    expect(status).toBe(200);
    for (const item of body.items) if (!query) byFile[item.filename] = item;
    return body;
  };
  const patch = (v: Visitor, id: string, body: unknown) => v.json<ReceiptDetail & { error?: string; message?: string }>(`/api/receipts/${id}`, { method: 'PATCH', ...json(body) });

  beforeAll(async () => {
    deployment = await Deployment.start('postgres', { RETENTION_SWEEP_MS: '1000' });
    ({ visitor: owner, email } = await signUp(deployment));
    // A subscriber: enough quota for the whole file, and the express lane.
    await activateSubscription(deployment.services.databaseUrl, email);
    await owner.connect();
    await Promise.all(Object.values(FILES).map((f) => processed(owner, f)));
    duplicateUploadId = await processed(owner, FILES.majuJaya, 'again.jpg');
    ({ visitor: stranger } = await signUp(deployment));
    await library();
    // Two receipts corrected into valid ones (a recent date; the items the OCR missed, and a subtotal and tax
    // that confirm the total the extraction had only one line for).
    const majuJaya = await patch(owner, byFile[FILES.majuJaya]!.id, {
      date: daysAgo(3),
      subtotal: 9.81,
      tax: 0.59,
      items: [
        { description: 'STEEL NAIL 2"', qty: 2, unitPrice: 2.5, amount: 5 },
        { description: '', qty: 1, unitPrice: 4.81, amount: 4.81 },
      ],
    });
    expect(majuJaya.body).toMatchObject({ valid: true, issues: [] });
    expect((await patch(owner, byFile[FILES.seriMurni]!.id, { date: daysAgo(5) })).body.valid).toBe(true);
    await library();
  });

  afterAll(async () => {
    owner?.close();
    await deployment?.stop();
  });

  it('streams the spec workbook: three sheets, exact headers, items in their slots, issues apart, a consistent summary', async () => {
    const { res, bytes } = await download(owner, 'format=xlsx&preset=generic');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toContain('filename="receipts_export.xlsx"');
    const workbook = await workbookOf(bytes);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Receipts', 'Validation Issues', 'Summary']);

    const [receiptsSheet, issuesSheet, summarySheet] = workbook.worksheets as [ExcelJS.Worksheet, ExcelJS.Worksheet, ExcelJS.Worksheet];
    const [header, ...valid] = rowsOf(receiptsSheet);
    expect(header).toEqual([...EXPORT_COLUMNS]);
    expect(valid.map((r) => r[0]).sort()).toEqual([FILES.majuJaya, FILES.seriMurni].sort());

    const majuJayaRow = receiptsSheet.getRow(valid.findIndex((r) => r[0] === FILES.majuJaya) + 2);
    const cell = (column: string) => majuJayaRow.getCell(EXPORT_COLUMNS.indexOf(column) + 1);
    expect(cell('merchantName').value).toBe('MAJU JAYA HARDWARE TRADING');
    expect(cell('total').value).toBe(10.4);
    expect(cell('total').numFmt).toBe('"MYR "#,##0.00');
    expect(cell('date').value).toEqual(new Date(`${daysAgo(3)}T00:00:00Z`));
    expect(cell('item_1_desc').value).toBe('STEEL NAIL 2"');
    expect(cell('item_1_qty').value).toBe(2);
    expect(cell('item_1_unitPrice').value).toBe(2.5);
    expect(cell('item_2_desc').value).toBe('Unknown Item');
    expect(cell('item_2_amount').value).toBe(4.81);
    expect(cell('item_2_amount').numFmt).toBe('"MYR "#,##0.00');
    expect(cell('item_3_desc').value).toBeNull();

    const [issueHeader, ...issues] = rowsOf(issuesSheet);
    expect(issueHeader).toEqual([...ISSUE_COLUMNS]);
    expect(issues.map((r) => r[0]).sort()).toEqual(['again.jpg', FILES.teckLeong].sort());
    const issueCell = (row: unknown[], column: (typeof ISSUE_COLUMNS)[number]) => row[ISSUE_COLUMNS.indexOf(column)];
    for (const row of issues) {
      expect(issueCell(row, 'quality')).toMatch(/^\d+%$/);
      expect(issueCell(row, 'issues')).toContain('Date out of reasonable range');
      // What working from the sheet needs: the date (a date cell), the tax and the currency beside the total.
      expect(issueCell(row, 'date')).toBeInstanceOf(Date);
      expect(issueCell(row, 'currency')).toBe('MYR');
    }

    const all = Object.values(byFile);
    const averageQuality = Math.round((all.reduce((s, r) => s + r.quality, 0) / all.length) * 1000) / 10;
    expect(rowsOf(summarySheet)).toEqual([
      ['metric', 'value'],
      ['Total processed', 4],
      ['Successfully exported', 2],
      ['Validation issues', 2],
      ['Success rate %', 50],
      ['Average quality %', averageQuality],
    ]);
  });

  it('exports a selection under its own name and sheet names', async () => {
    const ids = [byFile[FILES.majuJaya]!.id, byFile[FILES.teckLeong]!.id].join(',');
    const { res, bytes } = await download(owner, `ids=${ids}&name=March%20expenses&receiptsSheet=Spent&summarySheet=Totals`);
    expect(res.headers.get('content-disposition')).toContain('filename="March expenses.xlsx"');
    const workbook = await workbookOf(bytes);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Spent', 'Validation Issues', 'Totals']);
    expect(rowsOf(workbook.worksheets[0]!).slice(1).map((r) => r[0])).toEqual([FILES.majuJaya]);
    expect(rowsOf(workbook.worksheets[1]!).slice(1).map((r) => r[0])).toEqual([FILES.teckLeong]);

    // A selection too long for a URL goes as a JSON body.
    const posted = await owner.request('/api/export', { method: 'POST', ...json({ format: 'csv', ids: [byFile[FILES.seriMurni]!.id] }) });
    expect(posted.status).toBe(200);
    expect(parse(await posted.text(), { bom: true })).toHaveLength(2);
  });

  it('writes CSV files QuickBooks and Xero import, with money spent as negative amounts', async () => {
    const majuJaya = byFile[FILES.majuJaya]!;
    const seriMurni = byFile[FILES.seriMurni]!;
    const [y, m, d] = majuJaya.date!.split('-');

    const quickbooks = await download(owner, 'format=csv&preset=quickbooks');
    expect(quickbooks.res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const qbRows = parse(quickbooks.bytes, { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(qbRows[0]!)).toEqual(['Date', 'Description', 'Amount']);
    expect(qbRows).toHaveLength(2);
    expect(qbRows).toContainEqual({ Date: `${m}/${d}/${y}`, Description: majuJaya.merchantName, Amount: '-10.40' });
    const seriMurniLine = qbRows.find((r) => r.Description!.startsWith(seriMurni.merchantName!))!;
    expect(seriMurniLine.Description).toBe(`${seriMurni.merchantName}${seriMurni.receiptNumber ? ` #${seriMurni.receiptNumber}` : ''}`);
    expect(seriMurniLine.Amount).toBe(`-${seriMurni.total!.toFixed(2)}`);

    const xero = await download(owner, 'format=csv&preset=xero');
    const xeroRows = parse(xero.bytes, { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(xeroRows[0]!)).toEqual(['*Date', '*Amount', 'Payee', 'Description', 'Reference', 'Cheque Number']);
    expect(xeroRows.find((r) => r.Payee === majuJaya.merchantName)).toMatchObject({ '*Date': `${d}/${m}/${y}`, '*Amount': '-10.40' });
    expect(xero.res.headers.get('x-export-rows')).toBe('2');

    const isoDates = parse((await download(owner, 'format=csv&preset=xero&dateFormat=YYYY-MM-DD')).bytes, { columns: true }) as Array<Record<string, string>>;
    expect(isoDates.map((r) => r['*Date'])).toContain(majuJaya.date);

    const generic = parse((await download(owner, 'format=csv')).bytes, { bom: true }) as string[][];
    expect(generic[0]).toEqual([...EXPORT_COLUMNS]);
    expect(generic.slice(1).map((r) => r[0]).sort()).toEqual([FILES.majuJaya, FILES.seriMurni].sort());
  });

  it("refuses bad requests with the spec's texts before sending a byte", async () => {
    const error = async (query: string) => {
      const res = await owner.request(`/api/export?${query}`);
      return { status: res.status, ...((await res.json()) as { error: string; message: string }) };
    };
    expect(await error(`receiptsSheet=${'x'.repeat(32)}`)).toMatchObject({ status: 400, message: WORKBOOK_ERRORS.tooLong });
    expect(await error('issuesSheet=Q1%3A%20issues')).toMatchObject({ status: 400, message: WORKBOOK_ERRORS.illegal });
    expect(await error('summarySheet=receipts')).toMatchObject({ status: 400, message: WORKBOOK_ERRORS.duplicate });
    expect(await error('format=ods')).toMatchObject({ status: 400, error: 'VALIDATION_FAILED', message: 'Unrecognized bookType' });
    const notArray = await owner.json<{ message: string }>('/api/export', { method: 'POST', ...json({ ids: { first: 'x' } }) });
    expect(notArray).toMatchObject({ status: 400, body: { message: 'Invalid input: receipts must be an array' } });

    const empty = await new Visitor(deployment.baseUrl, uniqueIp()).json('/api/export?format=xlsx');
    expect(empty).toMatchObject({ status: 400, body: { error: 'NOTHING_TO_EXPORT', message: 'No completed receipts to export' } });
    // Another account's receipt is not found, not forbidden.
    const foreign = await stranger.json(`/api/export?ids=${byFile[FILES.seriMurni]!.id}`);
    expect(foreign.status).toBe(404);
  });

  it('searches, filters and pages the library', async () => {
    expect((await library('?q=murni')).items.map((r) => r.filename)).toEqual([FILES.seriMurni]);
    expect((await library('?valid=false')).items.map((r) => r.filename).sort()).toEqual(['again.jpg', FILES.teckLeong].sort());
    expect((await library(`?from=${daysAgo(4)}`)).items.map((r) => r.filename)).toEqual([FILES.majuJaya]);
    expect((await library('?category=retail&sort=total&order=asc&pageSize=1&page=1')).total).toBeGreaterThan(0);
    const paged = await library('?pageSize=3&page=2&sort=uploadedAt&order=asc');
    expect(paged).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(paged.items.map((r) => r.filename)).toEqual(['again.jpg']);
    expect((await owner.json('/api/receipts?valid=maybe')).status).toBe(400);
    expect((await stranger.json<ReceiptList>('/api/receipts')).body.total).toBe(0);
  });

  it('re-validates a corrected receipt, keeps its quality and records the edit', async () => {
    const { id, quality } = byFile[FILES.majuJaya]!;
    const wrong = await patch(owner, id, { total: 12 });
    expect(wrong.status).toBe(200);
    expect(wrong.body.issues).toContain('Total mismatch: 12.00 vs calculated 10.40');
    expect(wrong.body).toMatchObject({ valid: false, quality, edited: true });

    const right = await patch(owner, id, { total: 10.4 });
    expect(right.body.issues).toEqual([]);
    expect(right.body.valid).toBe(true);
    const totals = right.body.edits.filter((e) => e.changes.total).map((e) => e.changes.total);
    expect(totals).toEqual([
      { from: 10.4, to: 12 },
      { from: 12, to: 10.4 },
    ]);

    expect(await patch(owner, id, { total: -3 })).toMatchObject({ status: 400, body: { message: 'Amounts cannot be negative' } });
    expect(await patch(owner, id, { tin: 'x'.repeat(32768) })).toMatchObject({ status: 400, body: { message: WORKBOOK_ERRORS.textTooLong } });
    expect((await patch(stranger, id, { total: 1 })).status).toBe(404);
    expect((await stranger.json(`/api/receipts/${id}`)).status).toBe(404);
    expect((await stranger.json(`/api/receipts/${id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('flags the same file uploaded twice, and a receipt that repeats another, and lets the owner keep or delete them', async () => {
    const majuJaya = byFile[FILES.majuJaya]!;
    const { body: again } = await owner.json<UploadView>(`/api/uploads/${duplicateUploadId}`);
    expect(again.duplicateOf).toEqual({ uploadId: majuJaya.uploadId, filename: FILES.majuJaya, reason: 'same-file' });
    expect((await library('?duplicate=true')).items.map((r) => r.filename)).toEqual(['again.jpg']);

    // Corrected into the same merchant, date and total as an earlier receipt: flagged too.
    const seriMurni = byFile[FILES.seriMurni]!;
    const teckLeong = byFile[FILES.teckLeong]!;
    const copied = await patch(owner, teckLeong.id, { merchantName: 'seri murni co (m) bhd', date: seriMurni.date, total: seriMurni.total });
    // Earlier as the service tells it: by upload time to the millisecond, then by id (these uploads
    // were made together and can share a millisecond).
    const [earlier, later] = [seriMurni, teckLeong].sort((a, b) => a.uploadedAt.localeCompare(b.uploadedAt) || (a.uploadId < b.uploadId ? -1 : 1)) as [
      LibraryReceipt,
      LibraryReceipt,
    ];
    const flagged = later === teckLeong ? copied.body : (await owner.json<ReceiptDetail>(`/api/receipts/${seriMurni.id}`)).body;
    expect(flagged.duplicateOf).toEqual({ uploadId: earlier.uploadId, filename: earlier.filename, reason: 'same-receipt' });
    // Corrected apart again: the flag goes.
    const apart = await patch(owner, teckLeong.id, { total: (seriMurni.total ?? 0) + 1 });
    expect((await owner.json<ReceiptDetail>(`/api/receipts/${later.id}`)).body.duplicateOf).toBeUndefined();
    expect(apart.status).toBe(200);

    const kept = await owner.json<UploadView>(`/api/uploads/${duplicateUploadId}/keep`, { method: 'POST' });
    expect(kept.body.duplicateOf).toBeUndefined();
    expect((await library('?duplicate=true')).total).toBe(0);

    const stored = path.join(deployment.env.DATA_DIR!, 'uploads', duplicateUploadId.slice(0, 2), duplicateUploadId);
    expect(existsSync(stored)).toBe(true);
    const gone = await owner.request(`/api/receipts/${byFile['again.jpg']!.id}`, { method: 'DELETE' });
    expect(gone.status).toBe(204);
    expect(existsSync(stored)).toBe(false);
    expect((await owner.json(`/api/uploads/${duplicateUploadId}`)).status).toBe(404);
    expect((await library()).total).toBe(3);
  });

  it('re-extracts through the queue with live progress, for one quota unit', async () => {
    const seriMurni = byFile[FILES.seriMurni]!;
    const usedBefore = (await owner.json<QuotaView>('/api/user/quota')).body.used;
    expect(await owner.json(`/api/receipts/${seriMurni.id}/reextract`, { method: 'POST', ...json({ engine: 'documentai' }) })).toMatchObject({
      status: 400,
      body: { message: 'Document AI is not configured on this server.' },
    });

    const eventsBefore = owner.eventsFor(seriMurni.uploadId).length;
    const started = await owner.json<{ id: string; receiptId: string; lane: string }>(`/api/receipts/${seriMurni.id}/reextract`, {
      method: 'POST',
      ...json({ engine: 'local' }),
    });
    expect(started).toMatchObject({ status: 202, body: { id: seriMurni.uploadId, receiptId: seriMurni.id, status: 'queued', lane: 'express' } });
    const busy = await owner.json(`/api/receipts/${seriMurni.id}/reextract`, { method: 'POST', ...json({}) });
    expect(busy.status).toBe(409);
    await owner.waitFor(
      () => owner.eventsFor(seriMurni.uploadId).slice(eventsBefore).some((e) => e.event === 'upload:completed'),
      120_000,
      're-extraction',
    );
    const rerun = owner.eventsFor(seriMurni.uploadId).slice(eventsBefore);
    expect(rerun.filter((e) => e.event === 'upload:progress').map((e) => e.payload.progress)).toEqual(PIPELINE_STEPS.map((s) => s.progress));
    expect((await owner.json<QuotaView>('/api/user/quota')).body.used).toBe(usedBefore + 1);

    // The extraction's own values are back (the corrected date is replaced), under the same receipt id.
    const { body: after } = await owner.json<ReceiptDetail>(`/api/receipts/${seriMurni.id}`);
    expect(after.date).toBe('2018-02-09');
    expect(after.uploadStatus).toBe('completed');
    expect(after.edits.at(-1)).toMatchObject({ kind: 'reextraction', changes: { date: { from: seriMurni.date, to: '2018-02-09' } } });
    expect((await stranger.json(`/api/receipts/${seriMurni.id}/reextract`, { method: 'POST', ...json({}) })).status).toBe(404);
  });

  it('deletes originals after the retention period and keeps the extracted data', async () => {
    const teckLeong = byFile[FILES.teckLeong]!;
    const stored = path.join(deployment.env.DATA_DIR!, 'uploads', teckLeong.uploadId.slice(0, 2), teckLeong.uploadId);
    expect(existsSync(stored)).toBe(true);
    const db = new pg.Client({ connectionString: deployment.services.databaseUrl });
    await db.connect();
    await db.query(`UPDATE uploads SET created_at = now() - interval '91 days' WHERE id = $1`, [teckLeong.uploadId]);
    await db.end();
    // The sweep runs every second here (RETENTION_SWEEP_MS).
    await owner.waitFor(() => !existsSync(stored), 30_000, 'the retention sweep');
    // The sweep deletes the files first and marks their rows after: the mark may follow a moment later.
    const { body } = await until(() => owner.json<ReceiptDetail>(`/api/receipts/${teckLeong.id}`), (r) => !r.body.originalAvailable, 'the original marked deleted');
    expect(body).toMatchObject({ originalAvailable: false, merchantName: 'seri murni co (m) bhd' });
    const refused = await owner.json<{ message: string }>(`/api/receipts/${teckLeong.id}/reextract`, { method: 'POST', ...json({}) });
    expect(refused).toMatchObject({ status: 409, body: { message: 'The original file was deleted after 90 days, so this receipt cannot be extracted again.' } });
    expect(existsSync(path.join(deployment.env.DATA_DIR!, 'uploads', byFile[FILES.majuJaya]!.uploadId.slice(0, 2), byFile[FILES.majuJaya]!.uploadId))).toBe(true);
  });

  it('deletes an account and everything of it, once the password confirms it', async () => {
    const { visitor, email: gone } = await signUp(deployment);
    const uploadId = (await visitor.upload(await printedReceipt(PRINTED[FILES.teckLeong]!, { format: 'jpeg' }), 'mine.jpg', '?wait=1')).body.id as string;
    const stored = path.join(deployment.env.DATA_DIR!, 'uploads', uploadId.slice(0, 2), uploadId);
    expect(existsSync(stored)).toBe(true);

    expect(await visitor.json('/api/user/account', { method: 'DELETE', ...json({ password: 'Wrong123' }) })).toMatchObject({
      status: 403,
      body: { error: 'INVALID_CREDENTIALS' },
    });
    expect((await visitor.json('/api/user/account', { method: 'DELETE', ...json({}) })).status).toBe(400);
    expect(await visitor.json('/api/user/account', { method: 'DELETE', ...json({ password: PASSWORD }) })).toMatchObject({ status: 200 });

    expect(existsSync(stored)).toBe(false);
    expect((await visitor.json('/api/user/profile')).status).toBe(401);
    const again = new Visitor(deployment.baseUrl, uniqueIp());
    expect((await again.json('/api/auth/login', { method: 'POST', ...json({ email: gone, password: PASSWORD }) })).status).toBe(401);
    const db = new pg.Client({ connectionString: deployment.services.databaseUrl });
    await db.connect();
    const left = await db.query(
      `SELECT (SELECT count(*) FROM users WHERE email = $1)::int AS users, (SELECT count(*) FROM uploads WHERE id = $2)::int AS uploads`,
      [gone, uploadId],
    );
    await db.end();
    expect(left.rows[0]).toEqual({ users: 0, uploads: 0 });
    // The owner of the other receipts is untouched.
    expect((await library()).total).toBe(3);
  });

  it('ends only its own export when a client breaks a download off mid-workbook', async () => {
    const { visitor, email: bulkEmail } = await signUp(deployment);
    await activateSubscription(deployment.services.databaseUrl, bulkEmail);
    const db = new pg.Client({ connectionString: deployment.services.databaseUrl });
    await db.connect();
    try {
      // Enough receipts (a workbook of ~12 MB, more than the sockets' buffers hold) that it is still being written when the client leaves.
      const [{ id: userId }] = (await db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [bulkEmail])).rows as [{ id: string }];
      await db.query(
        `WITH made AS (
           INSERT INTO uploads (id, user_id, workspace_id, filename, mime_type, size, sha256, lane, status, progress)
           SELECT gen_random_uuid(), $1, $1, 'bulk-' || g || '.jpg', 'image/jpeg', 1000, md5(g::text), 'express', 'completed', 100
           FROM generate_series(1, 60000) g RETURNING id)
         INSERT INTO receipts (upload_id, merchant_name, date, currency, total, category, quality, items, raw_text, issues, valid)
         SELECT id, 'BULK MERCHANT', '2024-05-01', 'EUR', 9.99, 'other', 0.9, '[]'::jsonb, repeat('RECEIPT TEXT ', 20), '[]'::jsonb, true FROM made`,
        [userId],
      );
    } finally {
      await db.end();
    }
    const url = new URL('/api/export?format=xlsx', deployment.baseUrl);
    const received = await new Promise<number>((resolve, reject) => {
      http.get(url, { headers: visitor.headers() }, (res) => {
        res.once('data', (chunk: Buffer) => {
          // Gone after the first bytes, as a closed tab or a dropped connection.
          res.destroy();
          resolve(chunk.length);
        });
        res.once('error', () => undefined);
      }).on('error', reject);
    });
    expect(received).toBeGreaterThan(0);
    await until(async () => deployment.output(), (out) => out.includes('export stopped'), 'the api to log the broken-off export');
    // The api goes on: another account's export is whole.
    const again = await download(owner, 'format=xlsx');
    expect(again.res.status).toBe(200);
    expect((await workbookOf(again.bytes)).worksheets.map((sheet) => sheet.name)).toEqual(['Receipts', 'Validation Issues', 'Summary']);
  });
});

describe.each<DeploymentMode>(['pglite'])('export on the embedded database (%s)', (mode) => {
  let deployment: Deployment;
  let visitor: Visitor;

  beforeAll(async () => {
    deployment = await Deployment.start(mode);
    visitor = new Visitor(deployment.baseUrl, uniqueIp());
    await visitor.connect();
  });

  afterAll(async () => {
    visitor?.close();
    await deployment?.stop();
  });

  it("streams an anonymous visitor's workbook", async () => {
    await processed(visitor, FILES.majuJaya);
    const { res, bytes } = await download(visitor, 'format=xlsx');
    expect(res.status).toBe(200);
    const workbook = await workbookOf(bytes);
    expect(rowsOf(workbook.getWorksheet('Validation Issues')!).map((r) => r[0])).toEqual(['filename', FILES.majuJaya]);
    expect(rowsOf(workbook.getWorksheet('Summary')!)[1]).toEqual(['Total processed', 1]);
  });
});
