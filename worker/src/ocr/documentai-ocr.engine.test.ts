import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { extractReceipt } from '@receipts/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentAiEngine } from './documentai-ocr.engine.js';

/** A local stand-in answering Document AI's REST `:process` call as the Expense Parser does. */
function startStandIn() {
  const requests: Array<{ url: string; body: Record<string, unknown>; auth?: string }> = [];
  let answer: { status: number; body: unknown } = { status: 200, body: {} };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      requests.push({ url: req.url!, body: JSON.parse(raw || '{}') as Record<string, unknown>, auth: req.headers.authorization });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  return {
    requests,
    answer: (status: number, body: unknown) => (answer = { status, body }),
    listen: () => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const money = (units: number, nanos = 0) => ({ moneyValue: { currencyCode: 'MYR', units: String(units), nanos } });

describe('Document AI engine', () => {
  const standIn = startStandIn();
  let endpoint: string;

  beforeAll(async () => {
    endpoint = `http://127.0.0.1:${await standIn.listen()}`;
  });
  afterAll(() => standIn.close());

  const engine = () => createDocumentAiEngine({ projectId: 'proj', location: 'eu', processorId: 'proc1', apiEndpoint: endpoint });
  const doc = { mimeType: 'image/jpeg' as const, original: Buffer.from('jpeg bytes'), pages: [] };

  it('sends the file to the processor and maps the expense entities', async () => {
    standIn.answer(200, {
      document: {
        text: 'SRI BINTANG HARDWARE\nTOTAL 10.40',
        entities: [
          { type: 'supplier_name', mentionText: 'SRI BINTANG HARDWARE', confidence: 0.95 },
          { type: 'receipt_date', mentionText: '21/09/2017', confidence: 0.9, normalizedValue: { text: '2017-09-21', dateValue: { year: 2017, month: 9, day: 21 } } },
          { type: 'purchase_time', mentionText: '10:20', confidence: 0.8 },
          { type: 'total_amount', mentionText: '10.40', confidence: 0.97, normalizedValue: { text: '10.40', ...money(10, 400_000_000) } },
          { type: 'net_amount', mentionText: '9.81', confidence: 0.9, normalizedValue: money(9, 810_000_000) },
          { type: 'total_tax_amount', mentionText: '0.59', confidence: 0.9, normalizedValue: money(0, 590_000_000) },
          { type: 'currency', mentionText: 'RM', confidence: 0.9, normalizedValue: { text: 'MYR' } },
          {
            type: 'line_item',
            mentionText: 'WIRE MESH 6.00 5.40',
            confidence: 0.88,
            properties: [
              { type: 'line_item/description', mentionText: 'WIRE MESH', confidence: 0.9 },
              { type: 'line_item/quantity', mentionText: '0.9', confidence: 0.8, normalizedValue: { text: '0.9' } },
              { type: 'line_item/unit_price', mentionText: '6.00', normalizedValue: money(6) },
              { type: 'line_item/amount', mentionText: '5.40', normalizedValue: money(5, 400_000_000) },
            ],
          },
        ],
      },
    });
    const recognized = await engine().recognize(doc, new AbortController().signal);

    const request = standIn.requests.at(-1)!;
    expect(request.url.split('?')[0]).toBe('/v1/projects/proj/locations/eu/processors/proc1:process');
    expect(request.auth).toBe('Bearer local-stand-in');
    expect(request.body.rawDocument).toEqual({ content: Buffer.from('jpeg bytes').toString('base64'), mimeType: 'image/jpeg' });

    const fields = recognized.documents[0]!.fields;
    expect(fields.MerchantName).toMatchObject({ value: 'SRI BINTANG HARDWARE', confidence: 0.95 });
    expect(fields.Total!.value).toBeCloseTo(10.4);
    expect(fields.TransactionDate!.value).toBe('2017-09-21');
    expect(fields.Items!.values).toHaveLength(1);

    const receipt = extractReceipt(recognized);
    expect(receipt).toMatchObject({
      merchantName: 'SRI BINTANG HARDWARE',
      date: '2017-09-21',
      time: '10:20',
      total: 10.4,
      subtotal: 9.81,
      tax: 0.59,
      currency: 'MYR',
      items: [{ description: 'WIRE MESH', qty: 0.9, unitPrice: 6, amount: 5.4 }],
    });
    expect(receipt.quality).toBeGreaterThan(0.85);
  });

  it('reports an error answer clearly', async () => {
    standIn.answer(403, { error: { code: 403, message: 'Permission denied on processor', status: 'PERMISSION_DENIED' } });
    await expect(engine().recognize(doc, new AbortController().signal)).rejects.toThrow(
      /Document AI could not process the file: .*Permission denied on processor/,
    );
  });
});
