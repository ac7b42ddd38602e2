import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ApiTokenCreated, WebhookEndpointCreated, WebhookPayload } from '@receipts/common';
import { webhookPayloadSchema } from '@receipts/common';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ExcelJS from 'exceljs';
import createClient, { type Client } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_SCHEMA_FILE, apiSchemaSource } from '../cli/scripts/api-schema.js';
import type { paths } from '../cli/src/generated/api-schema.js';
import { signUp } from './support/accounts.js';
import { Deployment } from './support/deployment.js';
import { printedReceipt, PRINTED_RECEIPT_LINES } from './support/printed-receipt.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { until } from './support/until.js';
import { uniqueIp, Visitor } from './support/visitor.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

const PASSWORD = 'Contract123';

type Document = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };

/**
 * Every answer of `client` checked from outside against the document the service served: its
 * status must be one the operation lists, and a JSON body must validate against that status's
 * schema (JSON Schema 2020-12, as OpenAPI 3.1 writes it).
 */
function holdToDocument(document: Document, seen: string[]) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(document, 'openapi');
  const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
  return {
    async onResponse({ request, response, schemaPath }: { request: Request; response: Response; schemaPath: string }) {
      const method = request.method.toLowerCase();
      const operation = document.paths[schemaPath]?.[method];
      const where = `${request.method} ${schemaPath} ${response.status}`;
      seen.push(where);
      if (!operation) throw new Error(`${where}: not in the document`);
      const answer = operation.responses[String(response.status)];
      if (!answer) throw new Error(`${where}: status not in the document`);
      if (!response.headers.get('content-type')?.includes('application/json')) return undefined;
      const validate = ajv.getSchema(`openapi#/${pointer('paths', schemaPath, method, 'responses', String(response.status), 'content', 'application/json', 'schema')}`);
      if (!validate) throw new Error(`${where}: JSON answer where the document has none`);
      if (!validate(await response.clone().json())) throw new Error(`${where}: ${ajv.errorsText(validate.errors)}`);
      return undefined;
    },
  };
}

// The service as it runs (api and worker processes on PostgreSQL), driven the way a developer
// drives it: the document fetched from the service, the client typed by it, a token for every call,
// and a webhook receiver on 127.0.0.1 that checks every signature.
describe('the API contract: document, typed client, token, idempotency, webhooks', () => {
  let deployment: Deployment;
  let smtp: SmtpSink;
  let receiver: WebhookReceiver;
  let document: Document;
  let api: Client<paths>;
  const seen: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtpSink();
    receiver = await startWebhookReceiver();
    deployment = await Deployment.start('postgres', { SMTP_URL: smtp.url, PUBLIC_URL: 'http://receipts.test', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' });

    // A developer's account: confirmed, a token with every scope, an endpoint for its receipts' events.
    const session = new Visitor(deployment.baseUrl, uniqueIp());
    await signUp(session, smtp, `developer-${randomUUID()}@example.test`, PASSWORD);
    const send = <T>(url: string, body: unknown) => session.json<T>(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const token = await send<ApiTokenCreated>('/api/user/tokens', { name: 'contract test', scopes: ['receipts:read', 'receipts:write', 'export'] });
    expect(token.status).toBe(201);
    const hook = await send<WebhookEndpointCreated>('/api/user/webhooks', { url: receiver.url('/contract'), events: ['receipt.completed', 'receipt.corrected'] });
    expect(hook.status).toBe(201);
    receiver.expect('/contract', hook.body.secret);

    const served = await fetch(`${deployment.baseUrl}/api/openapi.json`);
    expect(served.status).toBe(200);
    document = (await served.json()) as Document;
    api = createClient<paths>({ baseUrl: deployment.baseUrl, headers: { Authorization: `Bearer ${token.body.token}` } });
    api.use(holdToDocument(document, seen));
  });

  afterAll(async () => {
    await deployment?.stop();
    await receiver?.close();
    await smtp?.close();
  });

  it('types the client with what the served document generates', async () => {
    expect(await apiSchemaSource(document)).toBe(await readFile(API_SCHEMA_FILE, 'utf8'));
  });

  it('uploads once under one key, waits, reads, corrects and exports with the token alone; the receipt’s events arrive signed', async () => {
    const file = await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' });
    const key = `contract-${randomUUID()}`;
    const upload = () =>
      api.POST('/api/ocr', {
        params: { header: { 'Idempotency-Key': key } },
        body: { file: new File([new Uint8Array(file)], 'corner.jpg', { type: 'image/jpeg' }) },
        bodySerializer: (body) => {
          const form = new FormData();
          form.append('file', body.file);
          return form;
        },
      });
    const quota = async () => (await api.GET('/api/user/quota')).data!.used;
    const before = await quota();
    const first = await upload();
    expect(first.response.status).toBe(202);
    const again = await upload();
    expect({ status: again.response.status, id: again.data?.id, replayed: again.response.headers.get('Idempotent-Replayed') }).toEqual({ status: 202, id: first.data!.id, replayed: 'true' });
    expect(await quota()).toBe(before + 1);
    const uploadId = first.data!.id;
    expect((await api.GET('/api/uploads')).data!.filter((u) => u.id === uploadId)).toHaveLength(1);

    const done = await until(async () => (await api.GET('/api/uploads/{id}', { params: { path: { id: uploadId } } })).data!, (u) => u.status === 'completed' || u.status === 'failed', 'the upload done', { timeoutMs: 180_000 });
    expect(done.status).toBe('completed');
    const receiptId = done.receipt!.id;

    const read = await api.GET('/api/receipts/{id}', { params: { path: { id: receiptId } } });
    expect(read.data).toMatchObject({ id: receiptId, total: 10.4 });

    const corrected = await api.PATCH('/api/receipts/{id}', { params: { path: { id: receiptId } }, body: { merchantName: 'Contract Hardware' } });
    expect(corrected.data).toMatchObject({ id: receiptId, merchantName: 'Contract Hardware' });

    const exported = await api.POST('/api/export', { params: { header: { 'Idempotency-Key': `export-${key}` } }, body: { format: 'xlsx', ids: [receiptId] }, parseAs: 'arrayBuffer' });
    expect(exported.response.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported.data as unknown as ArrayBuffer);
    const cells = (name: string) => {
      const values: string[] = [];
      workbook.getWorksheet(name)?.eachRow((row) => values.push(JSON.stringify(row.values)));
      return values.join('\n');
    };
    expect(cells('Receipts') + cells('Validation Issues')).toContain('Contract Hardware');

    // The webhook receiver checked each delivery's signature with the endpoint's secret.
    const payloadOf = (body: string): WebhookPayload => webhookPayloadSchema.parse(JSON.parse(body));
    const arrived = await until(
      async () => receiver.received.filter((r) => r.path === '/contract'),
      (all) => ['receipt.completed', 'receipt.corrected'].every((type) => all.some((r) => payloadOf(r.body).type === type)),
      'the completed and corrected deliveries',
      { timeoutMs: 120_000 },
    );
    expect(arrived.map((r) => r.check.ok)).toEqual(arrived.map(() => true));
    const completed = arrived.find((r) => payloadOf(r.body).type === 'receipt.completed')!;
    expect(payloadOf(completed.body).data).toMatchObject({ uploadId, receiptId });
    // An altered body under the same signature, and the same delivery replayed after the tolerance, are refused.
    expect(await receiver.post('/contract', completed.body.replace(uploadId, randomUUID()), completed.headers)).toBe(400);
    receiver.skewSeconds = 301;
    expect(await receiver.post('/contract', completed.body, completed.headers)).toBe(400);
    receiver.skewSeconds = 0;
  });

  it('answers a key reused for another file 422, and refuses what the token may not do', async () => {
    const key = `reused-${randomUUID()}`;
    const send = async (lines: string[]) => {
      const file = await printedReceipt(lines, { format: 'jpeg' });
      return api.POST('/api/ocr', {
        params: { header: { 'Idempotency-Key': key } },
        body: { file: new File([new Uint8Array(file)], 'r.jpg', { type: 'image/jpeg' }) },
        bodySerializer: (body) => {
          const form = new FormData();
          form.append('file', body.file);
          return form;
        },
      });
    };
    expect((await send(PRINTED_RECEIPT_LINES)).response.status).toBe(202);
    const reused = await send([...PRINTED_RECEIPT_LINES, 'THANK YOU']);
    expect({ status: reused.response.status, error: reused.error }).toMatchObject({ status: 422, error: { error: 'IDEMPOTENCY_KEY_REUSED' } });
    const closed = await api.GET('/api/user/tokens');
    expect({ status: closed.response.status, code: (closed.error as { error?: string } | undefined)?.error }).toEqual({ status: 403, code: 'FORBIDDEN' });
  });

  it('met only answers the document describes', () => {
    // Each call above passed holdToDocument; a failure there fails its own test. What was met:
    expect(seen).toEqual(expect.arrayContaining(['POST /api/ocr 202', 'GET /api/uploads/{id} 200', 'PATCH /api/receipts/{id} 200', 'POST /api/export 200', 'POST /api/ocr 422', 'GET /api/user/tokens 403']));
  });
});
