// What the vision model engine's tests and the pipeline's tests with it share: a model's answer,
// the engine pointed at a stand-in endpoint, and a metric's value.
import { pino } from 'pino';
import sharp from 'sharp';
import type { VlmReceipt } from '@receipts/common';
import { metricsRegistry } from '@receipts/infra';
import { createVlmEngine, type VlmEngineOptions } from './vlm-ocr.engine.js';

export const log = pino({ level: 'silent' });
export const now = new Date('2026-04-01T12:00:00Z');

/** What a model reads off an Italian café receipt: a consistent one. */
export const cafe: VlmReceipt = {
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

/** A tall photo-sized page, larger than the model's budget. */
export async function tallPage(): Promise<{ image: Buffer; width: number; height: number }> {
  return { image: await sharp({ create: { width: 1200, height: 3000, channels: 3, background: '#f4f1ea' } }).png().toBuffer(), width: 1200, height: 3000 };
}

/** The engine as the tests ask it, against the stand-in endpoint at `baseUrl`. */
export function standInEngine(baseUrl: string, options: Partial<VlmEngineOptions> = {}) {
  return createVlmEngine({
    baseUrl,
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
}

export async function metric(name: string, labels: Record<string, string>): Promise<number> {
  const found = (await metricsRegistry.getSingleMetric(name)?.get())?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return found?.value ?? 0;
}
