import { DocumentProcessorServiceClient } from '@google-cloud/documentai';
import type { RecognizedDocument, RecognizedField } from '@receipts/common';
import { GoogleAuth, OAuth2Client } from 'google-auth-library';
import type { DecodedDocument } from '../page/page.types.js';
import type { OcrEngine } from './ocr-engine.js';

export interface DocumentAiOptions {
  projectId: string;
  location: string;
  processorId: string;
  /** `host[:port]` or a full URL; `http://` (a local stand-in) switches to plain HTTP. */
  apiEndpoint?: string;
}

interface Entity {
  type?: string | null;
  mentionText?: string | null;
  confidence?: number | null;
  normalizedValue?: {
    text?: string | null;
    moneyValue?: { units?: string | number | { toString(): string } | null; nanos?: number | null; currencyCode?: string | null } | null;
    dateValue?: { year?: number | null; month?: number | null; day?: number | null } | null;
  } | null;
  properties?: Entity[] | null;
}

/** Expense Parser entity types → the field names the spec's rules read (spec §3). */
const FIELD_OF: Record<string, string> = {
  supplier_name: 'MerchantName',
  receipt_date: 'TransactionDate',
  invoice_date: 'TransactionDate',
  purchase_time: 'TransactionTime',
  net_amount: 'Subtotal',
  total_tax_amount: 'TotalTax',
  tip_amount: 'Tip',
  discount_amount: 'Discount',
  total_amount: 'Total',
  currency: 'CurrencyCode',
  payment_type: 'PaymentMethod',
  receipt_id: 'ReceiptNumber',
  invoice_id: 'InvoiceId',
  supplier_tax_id: 'TIN',
};
const ITEM_FIELD_OF: Record<string, string> = {
  'line_item/description': 'Description',
  'line_item/quantity': 'Quantity',
  'line_item/unit_price': 'Price',
  'line_item/amount': 'TotalPrice',
};

function valueOf(entity: Entity): string | number | undefined {
  const n = entity.normalizedValue;
  if (n?.moneyValue && n.moneyValue.units !== undefined && n.moneyValue.units !== null) {
    return Number(String(n.moneyValue.units)) + (n.moneyValue.nanos ?? 0) / 1e9;
  }
  if (n?.dateValue?.year && n.dateValue.month && n.dateValue.day) {
    const pad = (v: number) => String(v).padStart(2, '0');
    return `${n.dateValue.year}-${pad(n.dateValue.month)}-${pad(n.dateValue.day)}`;
  }
  return n?.text ?? entity.mentionText ?? undefined;
}

function toField(entity: Entity): RecognizedField {
  return { value: valueOf(entity), content: entity.mentionText ?? undefined, confidence: entity.confidence ?? undefined };
}

/** Document AI's entities in the recognized-document shape; document confidence = mean entity confidence. */
export function mapExpenseDocument(document: { text?: string | null; entities?: Entity[] | null }): RecognizedDocument {
  const fields: Record<string, RecognizedField> = {};
  const items: RecognizedField[] = [];
  const confidences: number[] = [];
  for (const entity of document.entities ?? []) {
    if (typeof entity.confidence === 'number') confidences.push(entity.confidence);
    if (entity.type === 'line_item') {
      const itemFields: Record<string, RecognizedField> = {};
      for (const property of entity.properties ?? []) {
        const name = property.type ? ITEM_FIELD_OF[property.type] : undefined;
        if (name) itemFields[name] = toField(property);
      }
      items.push({ ...toField(entity), fields: itemFields });
      continue;
    }
    const name = entity.type ? FIELD_OF[entity.type] : undefined;
    // The first mention of a field is the one the parser ranks highest.
    if (name && !fields[name]) fields[name] = toField(entity);
  }
  if (items.length > 0) {
    const itemConfidences = items.map((i) => i.confidence ?? 0.8);
    fields.Items = { values: items, confidence: itemConfidences.reduce((a, b) => a + b, 0) / items.length };
  }
  const confidence = confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length : undefined;
  return { content: document.text ?? '', documents: [{ confidence, fields }] };
}

/** Google Document AI's Expense Parser through its official client (REST transport). */
export function createDocumentAiEngine(options: DocumentAiOptions): OcrEngine {
  const endpoint = options.apiEndpoint ?? `${options.location}-documentai.googleapis.com`;
  const url = new URL(/^https?:\/\//.test(endpoint) ? endpoint : `https://${endpoint}`);
  const local = url.protocol === 'http:';
  // A stand-in needs no Google credentials; the real service uses Application Default Credentials.
  const authClient = local ? new OAuth2Client() : undefined;
  authClient?.setCredentials({ access_token: 'local-stand-in', expiry_date: Date.now() + 10 * 365 * 24 * 3600_000 });
  const client = new DocumentProcessorServiceClient({
    apiEndpoint: url.hostname,
    port: url.port ? Number(url.port) : local ? 80 : 443,
    protocol: local ? 'http' : 'https',
    fallback: 'rest',
    ...(authClient ? { authClient } : { auth: new GoogleAuth({ scopes: ['https://www.googleapis.com/auth/cloud-platform'] }) }),
  } as ConstructorParameters<typeof DocumentProcessorServiceClient>[0]);
  const name = client.processorPath(options.projectId, options.location, options.processorId);

  return {
    name: 'documentai',
    // The service takes the original file: no preprocessing to do.
    prepare: async (doc) => doc,
    async recognize(doc: DecodedDocument, signal: AbortSignal): Promise<RecognizedDocument> {
      signal.throwIfAborted();
      let onAbort!: () => void;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        const [result] = await Promise.race([
          client.processDocument({ name, rawDocument: { content: doc.original.toString('base64'), mimeType: doc.mimeType } }),
          aborted,
        ]);
        return mapExpenseDocument((result.document ?? {}) as { text?: string; entities?: Entity[] });
      } catch (err) {
        if (signal.aborted) throw err;
        throw new Error(`Document AI could not process the file: ${(err as Error).message}`);
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
    close: () => client.close(),
  };
}
