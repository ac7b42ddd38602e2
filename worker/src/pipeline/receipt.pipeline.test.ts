// The pipeline run whole, with the engines as the worker composes them: on decoded documents
// (a PDF's text layer, a scanned PDF, a photo that is no receipt), with the vision model engine,
// and with the vision model as the local engine's second opinion.
import { extractReceipt, renderIssue, validateReceipt } from '@receipts/common';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiStandIn } from '../../../tests/support/openai-stand-in.js';
import { scannedPdf, textPdf } from '../../../tests/support/pdf-fixtures.js';
import { printedReceipt, PRINTED_RECEIPT_LINES } from '../../../tests/support/printed-receipt.js';
import { closeDecoding } from '../document/decode.sandbox.js';
import { pagePreparation } from '../document/prepare-page.js';
import { createLocalOcrEngine } from '../ocr/local-ocr.engine.js';
import { createVlmEngine } from '../ocr/vlm-ocr.engine.js';
import { cafe, log, metric, now, standInEngine, tallPage } from '../ocr/vlm-ocr.fixture.js';
import { createOcrEngine } from './create-ocr-engine.js';
import { runPipeline } from './receipt.pipeline.js';

const signal = () => new AbortController().signal;
/** The vision model engine's page (module level: a describe cannot wait for it). */
const page = await tallPage();

describe('runPipeline on decoded documents', () => {
  const engine = createOcrEngine({ engine: 'local', concurrency: 1 });
  afterAll(async () => {
    await engine.close();
    await closeDecoding();
  });

  it('draws a PDF read from its text layer for the review screen, its lines on the pages counted from 0', async () => {
    const result = await runPipeline(
      { bytes: textPdf([['RECEIPT NUMBER ONE', 'TOTAL 1.00'], ['SECOND PAGE OF IT', 'TOTAL 2.00']]), mimeType: 'application/pdf' },
      engine,
      async () => undefined,
      signal(),
    );
    expect(result.lines.map((l) => l.page)).toEqual([0, 0, 1, 1]);
    expect(result.pictures).toHaveLength(2);
    const first = await sharp(result.pictures[0]!).metadata();
    // A 612 × 792 pt page, drawn with its long side at 2000 px.
    expect(first.height).toBe(2000);
    expect(first.width).toBeCloseTo((2000 * 612) / 792, -1);
  });

  it('rasterises a scanned PDF and reads it', async () => {
    const jpeg = await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' });
    const meta = await sharp(jpeg).metadata();
    const result = await runPipeline({ bytes: scannedPdf(jpeg, meta.width!, meta.height!), mimeType: 'application/pdf' }, engine, async () => undefined, signal());
    expect(result.receipt.total).toBe(10.4);
  });

  it('gives an honest empty receipt for a photo that is not a receipt, and the engine still works after all of the above', async () => {
    const noise = await sharp(Buffer.from(Array.from({ length: 400 * 300 * 3 }, (_, i) => (i * 2654435761) % 251)), {
      raw: { width: 400, height: 300, channels: 3 },
    })
      .jpeg()
      .toBuffer();
    const photo = await runPipeline({ bytes: noise, mimeType: 'image/jpeg' }, engine, async () => undefined, signal());
    expect(photo.receipt.total ?? null).toBeNull();
    expect(photo.valid).toBe(false);
    expect(validateReceipt(photo.receipt, new Date()).map(renderIssue)).toContain('Missing all key fields (merchant, total, and date)');

    const real = await runPipeline(
      { bytes: await printedReceipt(PRINTED_RECEIPT_LINES, { format: 'jpeg' }), mimeType: 'image/jpeg' },
      engine,
      async () => undefined,
      signal(),
    );
    expect(real.fullText).toContain('CORNER HARDWARE');
    expect(extractReceipt({ content: real.fullText, documents: [{ fields: {} }] }).total).toBe(10.4);
  });
});

describe('the pipeline with the vision model engine', () => {
  let standIn: Awaited<ReturnType<typeof startOpenAiStandIn>>;
  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
  });
  afterAll(() => standIn.close());
  const engine = () => standInEngine(standIn.baseUrl);

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
    expect(contradicted.issues.map(renderIssue)).toContain('Total mismatch: 50.00 vs calculated 5.00');
    expect(contradicted.valid).toBe(false);
    expect(contradicted.receipt.quality).toBeLessThan(good.receipt.quality);
    expect(validateReceipt(taxed.receipt, now).map(renderIssue)).toEqual(['Suspicious tax rate: 400%']);
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
      preparation: pagePreparation,
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
