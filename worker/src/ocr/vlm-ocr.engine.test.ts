import sharp from 'sharp';
import { pino } from 'pino';
import { USER_MESSAGES, validateReceipt, vlmReceiptJsonSchema, type VlmReceipt } from '@receipts/common';
import { metricsRegistry } from '@receipts/infra';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAiStandIn, type ChatRequest } from '../../../tests/support/openai-stand-in.js';
import { runPipeline } from '../pipeline/receipt.pipeline.js';
import { createLocalOcrEngine } from './local-ocr.engine.js';
import { EngineError, type DecodedDocument } from './ocr-engine.js';
import { createVlmEngine, VLM_FIELD_CONFIDENCE, type VlmEngineOptions } from './vlm-ocr.engine.js';

const log = pino({ level: 'silent' });
const now = new Date('2026-04-01T12:00:00Z');

/** What a model reads off an Italian café receipt: a consistent one. */
const cafe: VlmReceipt = {
  rawText: 'CAFFÈ ROMA SRL\nVia del Corso 12, Roma',
  merchantName: 'CAFFÈ ROMA SRL',
  date: '2026-03-14',
  time: '09:41',
  currency: 'EUR',
  subtotal: 4.1,
  tax: 0.9,
  tip: null,
  discount: null,
  total: 5,
  paymentMethod: 'card',
  receiptNumber: '0042-0117',
  tin: 'IT01234567890',
  items: [
    { description: 'ESPRESSO', qty: 2, unitPrice: 1.2, amount: 2.4 },
    { description: 'CORNETTO', qty: 1, unitPrice: 1.7, amount: 1.7 },
  ],
};

/** The text of a request's user message and its images, as the server received them. */
function userParts(request: ChatRequest) {
  const user = request.body.messages.find((m) => m.role === 'user')!;
  const parts = typeof user.content === 'string' ? [{ type: 'text', text: user.content }] : user.content;
  return { text: parts.filter((p) => p.type === 'text').map((p) => p.text).join('\n'), images: parts.filter((p) => p.type === 'image_url').map((p) => p.image_url!.url) };
}

async function metric(name: string, labels: Record<string, string>): Promise<number> {
  const found = (await metricsRegistry.getSingleMetric(name)?.get())?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return found?.value ?? 0;
}

describe('vision model engine (OpenAI-compatible endpoint)', () => {
  let standIn: Awaited<ReturnType<typeof startOpenAiStandIn>>;
  let page: { image: Buffer; width: number; height: number };

  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
    // A tall photo-sized page, larger than the model's budget.
    page = { image: await sharp({ create: { width: 1200, height: 3000, channels: 3, background: '#f4f1ea' } }).png().toBuffer(), width: 1200, height: 3000 };
  });
  afterAll(() => standIn.close());
  beforeEach(() => {
    standIn.requests.length = 0;
  });

  const engine = (options: Partial<VlmEngineOptions> = {}) =>
    createVlmEngine({
      baseUrl: standIn.baseUrl,
      model: 'qwen2.5vl:7b',
      apiKey: 'sk-local',
      timeoutMs: 5_000,
      retries: 2,
      concurrency: 2,
      stream: false,
      maxImagePixels: 1_000_000,
      responseFormat: 'json_schema',
      backoffMs: 10,
      log,
      ...options,
    });
  const photo = (): DecodedDocument => ({ mimeType: 'image/png', original: page.image, pages: [page] });
  const read = async (e = engine(), doc = photo(), signal = new AbortController().signal) => e.recognize(await e.prepare(doc, signal), signal, { currencyCode: 'USD', now });

  it('sends the pages scaled to the budget with the schema, and its answer meets the rules as fields', async () => {
    standIn.reply({ content: JSON.stringify(cafe) });
    const recognized = await read();

    const [request] = standIn.requests;
    expect(request!.authorization).toBe('Bearer sk-local');
    expect(request!.body).toMatchObject({ model: 'qwen2.5vl:7b', temperature: 0, response_format: { type: 'json_schema', json_schema: { name: 'receipt', strict: true, schema: vlmReceiptJsonSchema() } } });
    const { text, images } = userParts(request!);
    expect(text).toContain('USD');
    expect(images).toHaveLength(1);
    expect(images[0]).toMatch(/^data:image\/jpeg;base64,/);
    const sent = await sharp(Buffer.from(images[0]!.split(',')[1]!, 'base64')).metadata();
    expect(sent.width! * sent.height!).toBeLessThanOrEqual(1_000_000);
    expect(sent.height! / sent.width!).toBeCloseTo(2.5, 1);

    expect(recognized.readBy).toBe('vlm:qwen2.5vl:7b');
    expect(recognized.content).toBe(cafe.rawText);
    expect(recognized.documents[0]!.fields).toMatchObject({
      MerchantName: { value: 'CAFFÈ ROMA SRL', confidence: VLM_FIELD_CONFIDENCE },
      Total: { value: 5 },
      TotalTax: { value: 0.9 },
      Items: { values: [{ fields: { Description: { value: 'ESPRESSO' }, Quantity: { value: 2 } } }, expect.anything()] },
    });
  });

  it('runs through the whole pipeline: same extraction, same validation', async () => {
    standIn.reply({ content: JSON.stringify(cafe) });
    const e = engine();
    const result = await runPipeline({ bytes: page.image, mimeType: 'image/png', currencyCode: 'USD' }, e, async () => undefined, new AbortController().signal, now);
    expect(result.receipt).toMatchObject({ merchantName: 'CAFFÈ ROMA SRL', date: '2026-03-14', currency: 'EUR', subtotal: 4.1, tax: 0.9, total: 5, paymentMethod: 'card', tin: 'IT01234567890' });
    expect(result.receipt.items).toHaveLength(2);
    expect(result.issues).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.lines).toEqual([]);
  });

  it('flags what contradicts the arithmetic instead of trusting it', async () => {
    standIn.reply(
      { content: JSON.stringify(cafe) },
      // The total does not equal subtotal + tax, and the items do not add up to either.
      { content: JSON.stringify({ ...cafe, total: 50, items: [{ description: 'ESPRESSO', qty: 2, unitPrice: 1.2, amount: 24 }] }) },
      // Tax larger than the amount it was charged on.
      { content: JSON.stringify({ ...cafe, subtotal: 1, tax: 4, total: 5, items: [] }) },
    );
    const e = engine();
    const run = () => runPipeline({ bytes: page.image, mimeType: 'image/png' }, e, async () => undefined, new AbortController().signal, now);
    const good = await run();
    const contradicted = await run();
    const taxed = await run();
    expect(contradicted.issues).toContain('Total mismatch: 50.00 vs calculated 5.00');
    expect(contradicted.valid).toBe(false);
    expect(contradicted.receipt.quality).toBeLessThan(good.receipt.quality);
    expect(validateReceipt(taxed.receipt, now)).toEqual(['Suspicious tax rate: 400%']);
  });

  it('streams the answer when asked to, and counts its tokens', async () => {
    const before = await metric('receipts_vlm_tokens_total', { model: 'stream-model', kind: 'prompt' });
    standIn.reply({ content: JSON.stringify(cafe) });
    const recognized = await read(engine({ stream: true, model: 'stream-model' }));
    expect(standIn.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(recognized.documents[0]!.fields.Total).toMatchObject({ value: 5 });
    expect(await metric('receipts_vlm_tokens_total', { model: 'stream-model', kind: 'prompt' })).toBe(before + 1000);
    expect(await metric('receipts_vlm_requests_total', { model: 'stream-model', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
  });

  it('prices the tokens when the prices are set', async () => {
    standIn.reply({ content: JSON.stringify(cafe) });
    await read(engine({ model: 'priced-model', pricePerMTok: { input: 3, output: 15 } }));
    const completion = Math.ceil(JSON.stringify(cafe).length / 4);
    expect(await metric('receipts_vlm_cost_usd_total', { model: 'priced-model' })).toBeCloseTo((1000 * 3 + completion * 15) / 1e6, 9);
  });

  it('sends a malformed answer back once for repair, without the pages', async () => {
    standIn.reply({ content: `Sure! Here it is: ${JSON.stringify(cafe)}` }, { content: '```json\n' + JSON.stringify(cafe) + '\n```' });
    const recognized = await read(engine({ model: 'repair-model' }));
    expect(recognized.documents[0]!.fields.MerchantName).toMatchObject({ value: 'CAFFÈ ROMA SRL' });
    expect(standIn.requests).toHaveLength(2);
    const repair = userParts(standIn.requests[1]!);
    expect(repair.images).toEqual([]);
    expect(repair.text).toContain('it is not JSON');
    expect(repair.text).toContain('Sure! Here it is');
    expect(await metric('receipts_vlm_answers_total', { model: 'repair-model', outcome: 'repaired' })).toBe(1);
  });

  it('fails for good, with a message, when the repair is malformed too', async () => {
    standIn.reply({ content: JSON.stringify({ ...cafe, total: '5,00' }) }, { content: JSON.stringify({ ...cafe, items: undefined }) });
    const failure = await read().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(EngineError);
    expect(failure).toMatchObject({ message: USER_MESSAGES.vlmUnreadable, final: true });
    expect((failure as EngineError).detail).toContain('items');
    expect(userParts(standIn.requests[1]!).text).toContain('total');
  });

  it('gives up on a try that takes too long and tries again', async () => {
    standIn.reply({ hang: true }, { content: JSON.stringify(cafe) });
    const recognized = await read(engine({ timeoutMs: 300, model: 'slow-model' }));
    expect(recognized.documents[0]!.fields.Total).toMatchObject({ value: 5 });
    expect(standIn.requests).toHaveLength(2);
    expect(await metric('receipts_vlm_requests_total', { model: 'slow-model', outcome: 'timeout' })).toBe(1);
  });

  it('gives up on a stalled stream too, and fails the try for the job to retry once its own tries are spent', async () => {
    standIn.reply({ hang: true }, { hang: true });
    const failure = await read(engine({ timeoutMs: 300, retries: 1, stream: true })).catch((err: unknown) => err);
    expect(failure).toMatchObject({ message: USER_MESSAGES.vlmUnavailable, final: false });
    expect((failure as EngineError).detail).toMatch(/failed 2 tries .*no answer within 0.3 s/);
  });

  it('backs off on 429 as the server asks, and tries again', async () => {
    standIn.reply({ status: 429, message: 'Rate limit reached', headers: { 'retry-after': '0' } }, { content: JSON.stringify(cafe) });
    const recognized = await read(engine({ model: 'busy-model' }));
    expect(recognized.documents[0]!.fields.Total).toMatchObject({ value: 5 });
    expect(standIn.requests).toHaveLength(2);
    expect(await metric('receipts_vlm_requests_total', { model: 'busy-model', outcome: 'rate_limited' })).toBe(1);
  });

  it('fails the try after its retries when the server stays busy', async () => {
    standIn.reply(...Array.from({ length: 3 }, () => ({ status: 429, headers: { 'retry-after-ms': '5' } })));
    const failure = await read().catch((err: unknown) => err);
    expect(failure).toMatchObject({ message: USER_MESSAGES.vlmUnavailable, final: false });
    expect(standIn.requests).toHaveLength(3);
  });

  it.each([
    [401, 'Invalid API key'],
    [404, 'model "qwen2.5vl:7b" not found, try pulling it first'],
    [400, 'response_format json_schema is not supported'],
  ])('fails at once when the server refuses (%i), naming its reason to the operator', async (status, message) => {
    standIn.reply({ status, message });
    const failure = await read().catch((err: unknown) => err);
    expect(failure).toMatchObject({ message: USER_MESSAGES.vlmRefused, final: true });
    expect((failure as EngineError).detail).toContain(message);
    expect(standIn.requests).toHaveLength(1);
  });

  it('stops at once when the upload is cancelled mid-answer', async () => {
    standIn.reply({ hang: true });
    const cancel = new AbortController();
    const e = engine({ timeoutMs: 60_000 });
    const reading = e.recognize(await e.prepare(photo(), cancel.signal), cancel.signal, {});
    setTimeout(() => cancel.abort(new Error('cancelled by user')), 100);
    await expect(reading).rejects.toThrow('cancelled by user');
  });

  it('sends at most its concurrency to one endpoint at once', async () => {
    const before = standIn.maxInFlight;
    expect(before).toBeLessThanOrEqual(2);
    const e = engine({ concurrency: 2, baseUrl: standIn.baseUrl.replace('127.0.0.1', 'localhost') });
    await Promise.all(Array.from({ length: 6 }, () => read(e)));
    expect(standIn.requests).toHaveLength(6);
    expect(standIn.maxInFlight).toBe(2);
  });

  it.each([
    ['json_object', { type: 'json_object' }],
    ['prompt', undefined],
  ] as const)('asks for %s where a server cannot take a schema, and tells the schema in the prompt', async (responseFormat, sent) => {
    standIn.reply({ content: JSON.stringify(cafe) });
    await read(engine({ responseFormat }));
    expect(standIn.requests[0]!.body.response_format).toEqual(sent);
    const system = standIn.requests[0]!.body.messages[0]!.content as string;
    expect(system).toContain(JSON.stringify(vlmReceiptJsonSchema()));
  });

  it("reads a PDF's text layer as text, and keeps it as the receipt's text", async () => {
    standIn.reply({ content: JSON.stringify(cafe) });
    const textLayer = 'CAFFÈ ROMA SRL\nTOTALE EUR 5,00';
    const recognized = await read(engine(), {
      mimeType: 'application/pdf',
      original: Buffer.from('%PDF'),
      pages: [],
      textLayer,
      textLines: textLayer.split('\n').map((text, n) => ({ page: 0, text, box: { x: 0.1, y: 0.1 * n, width: 0.5, height: 0.05 } })),
    });
    const { text, images } = userParts(standIn.requests[0]!);
    expect(images).toEqual([]);
    expect(text).toContain('TOTALE EUR 5,00');
    expect(recognized.content).toBe(textLayer);
    expect(recognized.lines).toHaveLength(2);
  });
});

describe('the vision model as the second opinion of the local engine', () => {
  let standIn: Awaited<ReturnType<typeof startOpenAiStandIn>>;
  let blank: Buffer;

  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
    // A page tesseract reads nothing on: the local reading is as poor as it gets.
    blank = await sharp({ create: { width: 600, height: 900, channels: 3, background: '#ffffff' } }).png().toBuffer();
  });
  afterAll(() => standIn.close());

  const local = (retries = 0) =>
    createLocalOcrEngine({
      concurrency: 1,
      langs: ['eng'],
      paddle: 'never',
      secondOpinion: {
        engine: createVlmEngine({ baseUrl: standIn.baseUrl, model: 'second', timeoutMs: 5_000, retries, concurrency: 1, stream: false, maxImagePixels: 500_000, responseFormat: 'json_schema', backoffMs: 10, log }),
        log,
      },
    });

  it('asks the model about a receipt the local readers read poorly, and keeps the reading that makes more sense', async () => {
    standIn.reply({ content: JSON.stringify(cafe) });
    const kept = await metric('receipts_vlm_second_opinions_total', { outcome: 'kept' });
    const engine = local();
    try {
      const result = await runPipeline({ bytes: blank, mimeType: 'image/png' }, engine, async () => undefined, new AbortController().signal, now);
      expect(result.readBy).toBe('vlm:second');
      expect(result.receipt).toMatchObject({ merchantName: 'CAFFÈ ROMA SRL', total: 5 });
      expect(await metric('receipts_vlm_second_opinions_total', { outcome: 'kept' })).toBe(kept + 1);
    } finally {
      await engine.close();
    }
  });

  it('keeps the local reading when the model fails, and counts the failure', async () => {
    standIn.reply({ status: 500, message: 'CUDA out of memory' });
    const failed = await metric('receipts_vlm_second_opinions_total', { outcome: 'failed' });
    const engine = local();
    try {
      const result = await runPipeline({ bytes: blank, mimeType: 'image/png' }, engine, async () => undefined, new AbortController().signal, now);
      expect(result.readBy).toMatch(/^tesseract/);
      expect(await metric('receipts_vlm_second_opinions_total', { outcome: 'failed' })).toBe(failed + 1);
    } finally {
      await engine.close();
    }
  });
});
