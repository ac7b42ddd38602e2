import { USER_MESSAGES, type ClientConfig, type ReceiptDetail, type ReceiptList } from '@receipts/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './support/accounts.js';
import { Deployment } from './support/deployment.js';
import { startOpenAiStandIn } from './support/openai-stand-in.js';
import { printedReceipt } from './support/printed-receipt.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';
import { uniqueIp, Visitor } from './support/visitor.js';

const json = (body: unknown): RequestInit => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const daysAgo = (n: number) => new Date(Date.now() - n * 24 * 3600_000).toISOString().slice(0, 10);

/** What the model reads off the receipt, dated inside the spec's reasonable range. */
const reading = (merchantName: string) =>
  JSON.stringify({
    rawText: `${merchantName}\nVia del Corso 12, Roma`,
    merchantName,
    date: daysAgo(3),
    time: '09:41',
    currency: 'EUR',
    subtotal: 4.1,
    tax: 0.9,
    tip: null,
    discount: null,
    total: 5,
    paymentMethod: 'card',
    receiptNumber: '0042-0117',
    tin: null,
    items: [
      { description: 'ESPRESSO', qty: 2, unitPrice: 1.2, amount: 2.4 },
      { description: 'CORNETTO', qty: 1, unitPrice: 1.7, amount: 1.7 },
    ],
  });

// The built service (api and worker in one process) with a vision model as its main engine, on
// a stand-in that speaks the OpenAI chat-completions wire format; the real openai client talks to it.
describe('vision model engine in the service', () => {
  let standIn: Awaited<ReturnType<typeof startOpenAiStandIn>>;
  let deployment: Deployment;
  let owner: Visitor;
  let smtp: SmtpSink;

  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
    smtp = await startSmtpSink();
    deployment = await Deployment.start('pglite', {
      SMTP_URL: smtp.url,
      OCR_ENGINE: 'vlm',
      VLM_BASE_URL: standIn.baseUrl,
      VLM_MODEL: 'stand-in-vlm',
      VLM_STREAM: 'true',
      VLM_TIMEOUT_MS: '1500',
      VLM_RETRIES: '1',
      JOB_ATTEMPTS: '2',
      METRICS_PUBLIC: 'true',
    });
    owner = new Visitor(deployment.baseUrl, uniqueIp());
    const email = `vlm-${Math.random().toString(36).slice(2)}@example.test`;
    await signUp(owner, smtp, email, 'Secret123');
    await owner.connect();
  });

  afterAll(async () => {
    owner?.close();
    await deployment?.stop();
    await standIn?.close();
    await smtp?.close();
  });

  const upload = async () => {
    const { status, body } = await owner.upload(await printedReceipt(['CAFFE ROMA', 'TOTALE EUR 5,00'], { format: 'jpeg' }), 'cafe.jpg');
    expect(status).toBe(202);
    return body.id as string;
  };
  const receiptOf = async (uploadId: string) => {
    const { body } = await owner.json<ReceiptList>('/api/receipts');
    const entry = body.items.find((r) => r.uploadId === uploadId)!;
    return (await owner.json<ReceiptDetail>(`/api/receipts/${entry.id}`)).body;
  };

  it('offers the configured engines for re-extraction, the default first', async () => {
    expect((await owner.json<ClientConfig>('/api/config')).body.engines).toEqual(['vlm', 'local']);
  });

  it('reads an upload with the model, streamed, and stores what the rules made of it', async () => {
    standIn.reply({ content: reading('CAFFÈ ROMA SRL') });
    const id = await upload();
    expect((await owner.waitForEnd(id)).event).toBe('upload:completed');
    const request = standIn.requests.at(-1)!.body;
    expect(request).toMatchObject({ model: 'stand-in-vlm', stream: true, response_format: { type: 'json_schema' } });
    const detail = await receiptOf(id);
    expect(detail).toMatchObject({ merchantName: 'CAFFÈ ROMA SRL', total: 5, tax: 0.9, currency: 'EUR', readBy: 'vlm:stand-in-vlm', valid: true, issues: [] });
    expect(detail.items).toHaveLength(2);
  });

  it('retries the job when the model does not answer in time, like any engine', async () => {
    const before = standIn.requests.length;
    // The first attempt's two tries time out; the job's second attempt gets the answer.
    standIn.reply({ hang: true }, { hang: true }, { content: reading('CAFFÈ ROMA DUE') });
    const id = await upload();
    expect((await owner.waitForEnd(id)).event).toBe('upload:completed');
    expect(standIn.requests.length - before).toBe(3);
    expect((await receiptOf(id)).merchantName).toBe('CAFFÈ ROMA DUE');
  });

  it('fails the upload at once, with a message, when the endpoint refuses', async () => {
    const before = standIn.requests.length;
    standIn.reply({ status: 401, message: 'Incorrect API key provided' });
    const id = await upload();
    const end = await owner.waitForEnd(id);
    expect(end).toMatchObject({ event: 'upload:failed', payload: { error: USER_MESSAGES.vlmRefused } });
    expect(standIn.requests.length - before).toBe(1);
  });

  it('re-extracts a receipt with the local engine when asked to', async () => {
    standIn.reply({ content: reading('CAFFÈ ROMA TRE') });
    const id = await upload();
    await owner.waitForEnd(id);
    const detail = await receiptOf(id);
    const events = owner.eventsFor(id).length;
    expect((await owner.json(`/api/receipts/${detail.id}/reextract`, { method: 'POST', ...json({ engine: 'local' }) })).status).toBe(202);
    await owner.waitFor(() => owner.eventsFor(id).slice(events).some((e) => e.event === 'upload:completed'), 180_000, 're-extraction');
    expect((await receiptOf(id)).readBy).toMatch(/^(tesseract|paddle)/);
  });

  it('reports the model’s requests, tokens and latency in /metrics', async () => {
    const metrics = (await (await fetch(`${deployment.baseUrl}/metrics`)).text()).split('\n');
    /** The value of the series `name` whose labels include `labels`. */
    const value = (name: string, labels: Record<string, string>) => {
      const line = metrics.find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
      return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : NaN;
    };
    const model = 'stand-in-vlm';
    expect(value('receipts_vlm_requests_total', { model, outcome: 'ok' })).toBe(3);
    expect(value('receipts_vlm_requests_total', { model, outcome: 'timeout' })).toBe(2);
    expect(value('receipts_vlm_requests_total', { model, outcome: 'client_error' })).toBe(1);
    expect(value('receipts_vlm_request_duration_seconds_count', { model, outcome: 'ok' })).toBe(3);
    expect(value('receipts_vlm_tokens_total', { model, kind: 'prompt' })).toBe(3000);
    expect(value('receipts_vlm_answers_total', { model, outcome: 'valid' })).toBe(3);
    expect(value('receipts_ocr_duration_seconds_count', { engine: 'vlm' })).toBe(3);
  });
});

// JOB_TIMEOUT_MS is the backstop for a step nothing else bounds: here a model that never answers
// while its own timeout is far away. The run past its time is a failed attempt like any other.
describe('a job run past JOB_TIMEOUT_MS', () => {
  let standIn: Awaited<ReturnType<typeof startOpenAiStandIn>>;
  let deployment: Deployment;
  let visitor: Visitor;

  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
    deployment = await Deployment.start('pglite', {
      OCR_ENGINE: 'vlm',
      VLM_BASE_URL: standIn.baseUrl,
      VLM_MODEL: 'stand-in-vlm',
      VLM_TIMEOUT_MS: '600000',
      VLM_RETRIES: '0',
      JOB_TIMEOUT_MS: '3000',
      JOB_ATTEMPTS: '2',
    });
    visitor = new Visitor(deployment.baseUrl, uniqueIp());
    await visitor.connect();
  });

  afterAll(async () => {
    visitor?.close();
    await deployment?.stop();
    await standIn?.close();
  });

  const upload = async (name: string) => {
    const { status, body } = await visitor.upload(await printedReceipt(['CAFFE ROMA', 'TOTALE EUR 5,00'], { format: 'jpeg' }), name);
    expect(status).toBe(202);
    return body.id as string;
  };

  it('is stopped and tried again; the next attempt completes the upload', async () => {
    standIn.reply({ hang: true }, { content: reading('CAFFÈ ROMA QUATTRO') });
    const id = await upload('hangs-once.jpg');
    // Far inside the model's own 10-minute timeout: only the job's deadline ends the first run.
    expect((await visitor.waitForEnd(id, 120_000)).event).toBe('upload:completed');
    expect(standIn.requests).toHaveLength(2);
  });

  it('fails the upload with a reference once no attempt is left, and gives its quota unit back', async () => {
    const before = standIn.requests.length;
    standIn.reply({ hang: true }, { hang: true });
    const id = await upload('hangs-always.jpg');
    const end = await visitor.waitForEnd(id, 120_000);
    expect(end).toMatchObject({ event: 'upload:failed', payload: { error: expect.stringMatching(/^Processing failed on our side\. .*quote reference /) } });
    expect(standIn.requests.length - before).toBe(2);
    const { body: quota } = await visitor.json<{ used: number }>('/api/user/quota');
    expect(quota.used).toBe(1);
  });
});
