import path from 'node:path';
import { extractReceipt } from '@receipts/common';
import { beforeAll, describe, expect, it } from 'vitest';
import { receiptsDir } from './support/service-process.js';
import { sharedFileThere } from './support/shared-sets.js';
import { groundTruthText, labelDate, labelTotal, loadLabels, MERCHANT_SIMILARITY, nameSimilarity, type SroieLabel } from './support/sroie.js';

/**
 * The extraction rules on the 40 SROIE receipts' own transcripts (no OCR noise): floors just
 * under what the rules reach today, so a regression in any field fails here.
 */
describe.skipIf(!sharedFileThere(path.join(receiptsDir, 'labels.json'), 'extraction on the SROIE transcripts'))('extraction on the SROIE ground-truth transcripts', () => {
  let results: Array<{ label: SroieLabel; receipt: ReturnType<typeof extractReceipt> }>;

  beforeAll(async () => {
    const labels = await loadLabels();
    results = await Promise.all(
      labels.map(async (label) => ({
        label,
        receipt: extractReceipt({ content: await groundTruthText(label.file), documents: [{ fields: {} }] }, { now: new Date('2019-01-01') }),
      })),
    );
  });

  const share = (ok: (r: (typeof results)[number]) => boolean) => results.filter(ok).length / results.length;

  it('reads the total', () => {
    expect(share((r) => r.receipt.total === labelTotal(r.label))).toBeGreaterThanOrEqual(0.85);
  });

  it('reads the date', () => {
    expect(share((r) => r.receipt.date === labelDate(r.label))).toBeGreaterThanOrEqual(0.95);
  });

  it('reads the merchant', () => {
    expect(share((r) => nameSimilarity(r.receipt.merchantName, r.label.company) >= MERCHANT_SIMILARITY)).toBeGreaterThanOrEqual(0.9);
  });

  it('finds them to be ringgit receipts', () => {
    expect(share((r) => r.receipt.currency === 'MYR')).toBeGreaterThanOrEqual(0.95);
  });
});
