import sharp from 'sharp';
import { USER_MESSAGES, vlmReceiptJsonSchema } from '@receipts/common';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAiStandIn, type ChatRequest } from '../../../tests/support/openai-stand-in.js';
import type { DecodedDocument } from '../page/page.types.js';
import { EngineError } from './ocr-engine.js';
import { VLM_FIELD_CONFIDENCE, type VlmEngineOptions } from './vlm-ocr.engine.js';
import { cafe, metric, now, standInEngine, tallPage } from './vlm-ocr.fixture.js';

/** The text of a request's user message and its images, as the server received them. */
function userParts(request: ChatRequest) {
  const user = request.body.messages.find((m) => m.role === 'user')!;
  const parts = typeof user.content === 'string' ? [{ type: 'text', text: user.content }] : user.content;
  return { text: parts.filter((p) => p.type === 'text').map((p) => p.text).join('\n'), images: parts.filter((p) => p.type === 'image_url').map((p) => p.image_url!.url) };
}

describe('vision model engine (OpenAI-compatible endpoint)', () => {
  let standIn: Awaited<ReturnType<typeof startOpenAiStandIn>>;
  let page: { image: Buffer; width: number; height: number };

  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
    page = await tallPage();
  });
  afterAll(() => standIn.close());
  beforeEach(() => {
    standIn.requests.length = 0;
  });

  const engine = (options: Partial<VlmEngineOptions> = {}) => standInEngine(standIn.baseUrl, options);
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
