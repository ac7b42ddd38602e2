// Issue 43, "the rest", against the real service (PostgreSQL, api and worker as processes of their
// own): control characters in request text are refused with the api's validation error instead
// of failing an insert with 500; a PDF whose font maps a glyph to NUL is read; /metrics is closed
// unless a token is set or the operator opens it.
import { CONTROL_CHARACTERS_MESSAGE, type MerchantRuleView, type ReceiptDetail, type ReceiptList, type UploadView } from '@receipts/common';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activateSubscription, signUpUnconfirmed } from './support/accounts.js';
import { Deployment } from './support/deployment.js';
import { freePort } from './support/free-port.js';
import { controlGlyphPdf } from './support/pdf-fixtures.js';
import { startServiceProcess } from './support/service-process.js';
import { uniqueIp, Visitor } from './support/visitor.js';

const PASSWORD = 'Secret123';
const json = (method: string, body: unknown): RequestInit => ({ method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const refused = { status: 400, body: { error: 'VALIDATION_FAILED', message: CONTROL_CHARACTERS_MESSAGE } };

describe('hostile text and closed metrics (issue 43)', () => {
  let deployment: Deployment;
  let owner: Visitor;
  let receipt: ReceiptDetail;
  let rule: MerchantRuleView;

  beforeAll(async () => {
    const email = `input-${Math.random().toString(36).slice(2)}@example.test`;
    // One attempt: a receipt that cannot be stored fails at once, not after the retries' back-off.
    deployment = await Deployment.start('postgres', { JOB_ATTEMPTS: '1', ADMIN_EMAILS: email });
    owner = new Visitor(deployment.baseUrl, uniqueIp());
    await signUpUnconfirmed(owner, deployment.services.databaseUrl, email, PASSWORD);
    // Confirmed (an admin then, for the admin search) and with receipts to spare.
    await activateSubscription(deployment.services.databaseUrl, email);
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  it('reads a PDF whose text layer maps glyphs to NUL and BEL, without them', async () => {
    // `~` is NUL and `^` is BEL in this PDF's font.
    const pdf = controlGlyphPdf(['CORNER HARD~WARE TRADING', 'DATE 21/09/2024 10:20^', 'NAILS 5.40', 'HINGES 5.00', 'TOTAL~ 10.40', 'CASH 20.00', 'CHANGE 9.60']);
    const { status, body } = await owner.upload(pdf, 'nul-glyphs.pdf', '?wait=1');
    expect({ status, upload: body }).toMatchObject({ status: 200, upload: { status: 'completed' } });
    const list = (await owner.json<ReceiptList>('/api/receipts')).body;
    const id = list.items.find((r) => r.uploadId === (body as unknown as UploadView).id)!.id;
    receipt = (await owner.json<ReceiptDetail>(`/api/receipts/${id}`)).body;
    expect(receipt.readBy).toBe('pdf-text');
    expect(receipt.merchantName).toBe('CORNER HARDWARE TRADING');
    expect(receipt.total).toBe(10.4);
    expect(receipt.fullText).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(receipt.lines.map((l) => l.text)).toContain('DATE 21/09/2024 10:20');
  });

  it('refuses control characters in a receipt correction with 400, and keeps the receipt as it was', async () => {
    const patch = (body: unknown) => owner.json(`/api/receipts/${receipt.id}`, json('PATCH', body));
    expect(await patch({ merchantName: 'Corner\u0000Hardware' })).toEqual(refused);
    expect(await patch({ receiptNumber: '\u0000' })).toEqual(refused);
    expect(await patch({ items: [{ description: 'NAILS\u0000', amount: 5.4 }] })).toEqual(refused);
    // A one-line field takes no line break either.
    expect(await patch({ paymentMethod: 'cash\n' })).toEqual(refused);
    expect((await owner.json<ReceiptDetail>(`/api/receipts/${receipt.id}`)).body.merchantName).toBe('CORNER HARDWARE TRADING');
    // A clean correction goes through and teaches a rule (the next test's).
    expect((await patch({ merchantName: 'Corner Hardware' })).status).toBe(200);
  });

  it('refuses control characters in a rule with 400', async () => {
    const rules = (await owner.json<{ rules: MerchantRuleView[] }>('/api/user/rules')).body.rules;
    rule = rules.find((r) => r.kind === 'merchant')!;
    expect(rule).toMatchObject({ value: 'Corner Hardware' });
    expect(await owner.json(`/api/user/rules/${rule.id}`, json('PATCH', { value: 'Corner\u0000' }))).toEqual(refused);
    expect(await owner.json(`/api/user/rules/${rule.id}`, json('PATCH', { value: '\u001bCorner' }))).toEqual(refused);
    expect((await owner.json<{ rules: MerchantRuleView[] }>('/api/user/rules')).body.rules.find((r) => r.id === rule.id)?.value).toBe('Corner Hardware');
  });

  it.each([
    ['/api/receipts?q=a%00b'],
    ['/api/receipts?q=%07'],
    ['/api/receipts/spending?q=a%00b'],
    ['/api/export?q=a%00b'],
    ['/api/export?preset=datev&q=%00'],
    ['/api/export?name=a%00b'],
    ['/api/export?receiptsSheet=a%00b'],
    ['/api/admin/users?search=a%00b'],
  ])('refuses GET %s with 400', async (url) => {
    expect(await owner.json(url)).toEqual(refused);
  });

  it('writes no DATEV field that a spreadsheet would run as a formula', async () => {
    const patch = { merchantName: '=HYPERLINK("http://x.test","y")', receiptNumber: "+1+cmd|' /C calc'!A0", currency: 'EUR', date: '2024-09-21' };
    expect(await owner.json(`/api/receipts/${receipt.id}`, json('PATCH', patch))).toMatchObject({ status: 200 });
    // Exported only once valid: the flags it raises are accepted, as a person would after looking.
    for (const issue of (await owner.json<ReceiptDetail>(`/api/receipts/${receipt.id}`)).body.issues) {
      expect((await owner.json(`/api/receipts/${receipt.id}/issues/accept`, json('POST', { issue }))).status).toBe(200);
    }
    const res = await owner.request('/api/export?preset=datev');
    expect(res.status).toBe(200);
    const rows = parse(iconv.decode(Buffer.from(await res.arrayBuffer()), 'win1252'), { delimiter: ';', relax_column_count: true, relax_quotes: true }) as string[][];
    const fields = rows.slice(2).flat();
    expect(fields.some((f) => f.includes('HYPERLINK'))).toBe(true);
    // A plain signed amount is a number, not a formula.
    expect(fields.filter((f) => /^\s*[=+\-@]/.test(f) && !/^-?\d+(,\d+)?$/.test(f))).toEqual([]);
  });

  it('refuses a NUL in a POST /api/export body with 400', async () => {
    expect(await owner.json('/api/export', json('POST', { q: 'a\u0000b' }))).toEqual(refused);
  });

  it('keeps /metrics closed without a token, on the api and the worker, and opens it with METRICS_PUBLIC', async () => {
    const notFound = { status: 404, body: { error: 'NOT_FOUND', message: 'Not found' } };
    const scrape = async (url: string, headers: Record<string, string> = {}) => {
      const res = await fetch(url, { headers });
      return { status: res.status, body: res.headers.get('content-type')?.startsWith('application/json') ? await res.json() : await res.text() };
    };
    expect(await scrape(`${deployment.baseUrl}/metrics`)).toEqual(notFound);
    expect(await scrape(`${deployment.baseUrl}/metrics`, { Authorization: 'Bearer some-guess-some-guess-00' })).toEqual(notFound);
    const workerPort = /\/metrics on port (\d+)/.exec(deployment.output())![1];
    expect(await scrape(`http://127.0.0.1:${workerPort}/metrics`)).toEqual(notFound);

    const open = await startServiceProcess('api', { ...deployment.env, PORT: String(await freePort()), ROLES: 'api', METRICS_PUBLIC: 'true' });
    try {
      const { status, body } = await scrape(`http://127.0.0.1:${open.port}/metrics`);
      expect(status).toBe(200);
      expect(body).toMatch(/^receipts_queue_depth\{/m);
    } finally {
      await open.stop('SIGTERM');
    }
  });
});
