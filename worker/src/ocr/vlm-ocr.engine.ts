import sharp from 'sharp';
import {
  USER_MESSAGES,
  vlmReceiptJsonSchema,
  vlmReceiptSchema,
  type RecognizedDocument,
  type RecognizedField,
  type RecognizedLine,
  type VlmReceipt,
} from '@receipts/common';
import { metrics } from '@receipts/infra';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { DecodedDocument, PageImage } from '../page/page.types.js';
import { EngineError, type OcrEngine, type RecognizeHints } from './ocr-engine.js';
import { createVlmClient, VlmRequestError, type Completion, type CompletionRequest, type VlmClientOptions } from './vlm.client.js';

export type VlmResponseFormat = 'json_schema' | 'json_object' | 'prompt';

export interface VlmEngineOptions extends VlmClientOptions {
  /** Each page is scaled down to at most this many pixels. */
  maxImagePixels: number;
  responseFormat: VlmResponseFormat;
}

/**
 * How sure a value a vision model read is. It states no confidence of its own; this one clears
 * the bar a service's merchant name must clear (0.8), and a value the receipt's arithmetic
 * contradicts is lowered by the extraction rules like any engine's.
 */
export const VLM_FIELD_CONFIDENCE = 0.85;
/** Room for a long receipt's items; an answer cut off here is malformed and sent back once for repair. */
const MAX_TOKENS = 4096;
/** A PDF's text layer sent instead of its pages is cut here (a receipt is far shorter). */
const MAX_TEXT_LAYER = 20_000;

const SCHEMA = vlmReceiptJsonSchema();
const INSTRUCTIONS = [
  'You read receipts and answer with one JSON object and nothing else.',
  'Copy every value as it is printed; never compute, convert or guess one. A value that is not printed, or not legible, is null.',
  'Amounts are plain numbers with a dot before the decimals (1234.5, not "1.234,50"); dates are YYYY-MM-DD and times HH:MM.',
  `The object follows this JSON Schema:\n${JSON.stringify(SCHEMA)}`,
].join('\n');

/** The response_format a server is asked for; none where it constrains nothing (the prompt carries the schema). */
function responseFormat(format: VlmResponseFormat): CompletionRequest['response_format'] {
  if (format === 'json_schema') return { type: 'json_schema', json_schema: { name: 'receipt', schema: SCHEMA, strict: true } };
  if (format === 'json_object') return { type: 'json_object' };
  return undefined;
}

/** A page as a JPEG within the pixel budget; text needs the resolution, the model's context the budget. */
export async function downscalePage(page: PageImage, maxPixels: number): Promise<PageImage> {
  const scale = Math.min(1, Math.sqrt(maxPixels / (page.width * page.height)));
  const width = Math.max(1, Math.round(page.width * scale));
  const height = Math.max(1, Math.round(page.height * scale));
  const image = await sharp(page.image).resize(width, height, { fit: 'fill' }).jpeg({ quality: 85 }).toBuffer();
  return { image, width, height };
}

/** The model's answer parsed strictly: the whole reply is one JSON object of the schema (a code fence around it is allowed). */
export function parseAnswer(text: string): { receipt: VlmReceipt } | { problems: string } {
  const body = text
    .trim()
    .replace(/^<think>[\s\S]*?<\/think>\s*/, '')
    .replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (err) {
    return { problems: `it is not JSON (${(err as Error).message})` };
  }
  const parsed = vlmReceiptSchema.safeParse(json);
  if (parsed.success) return { receipt: parsed.data };
  const problems = parsed.error.issues.slice(0, 12).map((i) => `${i.path.join('.') || 'the answer'}: ${i.message}`);
  return { problems: problems.join('; ') };
}

/**
 * The answer in the recognized-document shape every engine hands to the extraction rules: the
 * model's values as a service's fields, so the same rules decide the currency, normalise the
 * date, check the money, net an inclusive subtotal, weigh the items against the sums and
 * validate. The text is a PDF's own text layer where there is one, else the model's transcript of
 * the header (no boxes: a model gives no places).
 */
export function recognizedFromAnswer(answer: VlmReceipt, model: string, doc: Pick<DecodedDocument, 'textLayer' | 'textLines'>): RecognizedDocument {
  const field = (value: string | number | null): RecognizedField | undefined =>
    value === null || value === '' ? undefined : { value, confidence: VLM_FIELD_CONFIDENCE };
  const candidates: Record<string, RecognizedField | undefined> = {
    MerchantName: field(answer.merchantName),
    TransactionDate: field(answer.date),
    TransactionTime: field(answer.time),
    CurrencyCode: field(answer.currency),
    Subtotal: field(answer.subtotal),
    TotalTax: field(answer.tax),
    Tip: field(answer.tip),
    Discount: field(answer.discount),
    Total: field(answer.total),
    PaymentMethod: field(answer.paymentMethod),
    ReceiptNumber: field(answer.receiptNumber),
    TIN: field(answer.tin),
  };
  if (answer.items.length > 0) {
    candidates.Items = {
      confidence: VLM_FIELD_CONFIDENCE,
      values: answer.items.map((item) => ({
        fields: Object.fromEntries(
          Object.entries({ Description: item.description, Quantity: item.qty, Price: item.unitPrice, TotalPrice: item.amount }).flatMap(([name, value]) =>
            value === null || value === '' ? [] : [[name, { value }]],
          ),
        ),
      })),
    };
  }
  const fields = Object.fromEntries(Object.entries(candidates).filter((entry): entry is [string, RecognizedField] => entry[1] !== undefined));
  const readBy = `vlm:${model}`;
  if (doc.textLayer !== undefined) {
    const lines: RecognizedLine[] | undefined = doc.textLines?.map((l) => ({ ...l, confidence: 1 }));
    return { content: doc.textLayer, documents: [{ fields }], lines, readBy };
  }
  return { content: answer.rawText, documents: [{ fields }], readBy };
}

/** The question: the pages (or a PDF's text) and the currency the user expects. */
function question(doc: DecodedDocument, hints: RecognizeHints): ChatCompletionMessageParam[] {
  const expect = hints.currencyCode ? ` The user expects amounts in ${hints.currencyCode} unless the receipt shows another currency.` : '';
  const content: ChatCompletionContentPart[] =
    doc.textLayer !== undefined
      ? [{ type: 'text', text: `Read this receipt from its text.${expect}\n\n${doc.textLayer.slice(0, MAX_TEXT_LAYER)}` }]
      : [
          { type: 'text', text: `Read this receipt${doc.pages.length > 1 ? ` (${doc.pages.length} pages, in order)` : ''}.${expect}` },
          ...doc.pages.map((page): ChatCompletionContentPart => ({ type: 'image_url', image_url: { url: `data:image/jpeg;base64,${page.image.toString('base64')}` } })),
        ];
  return [
    { role: 'system', content: INSTRUCTIONS },
    { role: 'user', content },
  ];
}

/** The repair request: the malformed answer and what is wrong with it, without the pages again. */
function repair(answer: string, problems: string): ChatCompletionMessageParam[] {
  return [
    { role: 'system', content: INSTRUCTIONS },
    {
      role: 'user',
      content: `This answer to a receipt does not follow the schema: ${problems}.\nGive the corrected JSON object only, keeping every value that was read.\n\n${answer.slice(0, MAX_TEXT_LAYER)}`,
    },
  ];
}

/**
 * A vision-language model behind any OpenAI-compatible chat-completions endpoint (Ollama, vLLM,
 * LM Studio, llama.cpp server, a hosted provider). It is sent the pages, scaled to the model's
 * budget, and asked for the receipt record as JSON constrained by the schema derived from the
 * record's own (`response_format: json_schema` where the server supports it); the answer is
 * parsed strictly, a malformed one sent back once for repair, and what it says goes through the
 * same rules as every engine's reading.
 */
export function createVlmEngine(options: VlmEngineOptions): OcrEngine {
  const client = createVlmClient(options);
  const request: CompletionRequest = { temperature: 0, max_tokens: MAX_TOKENS, response_format: responseFormat(options.responseFormat) };
  const { log, model } = options;

  async function ask(messages: ChatCompletionMessageParam[], signal: AbortSignal): Promise<Completion> {
    try {
      return await client.complete(messages, request, signal);
    } catch (err) {
      if (!(err instanceof VlmRequestError)) throw err;
      throw new EngineError(err.refused ? USER_MESSAGES.vlmRefused : USER_MESSAGES.vlmUnavailable, err.refused, err.message);
    }
  }

  return {
    name: 'vlm',
    async prepare(doc, signal) {
      const pages: PageImage[] = [];
      for (const page of doc.pages) {
        signal.throwIfAborted();
        pages.push(await downscalePage(page, options.maxImagePixels));
      }
      return { ...doc, pages };
    },
    async recognize(doc, signal, hints = {}) {
      const first = await ask(question(doc, hints), signal);
      let parsed = parseAnswer(first.text);
      let outcome = 'valid';
      if ('problems' in parsed) {
        const { problems } = parsed;
        // "length": the answer was cut at max_tokens, which explains the problems.
        log.warn({ endpoint: client.endpoint, model, problems, finishReason: first.finishReason, answer: first.text.slice(0, 500) }, 'vision model answer malformed; asking once for a repair');
        const second = await ask(repair(first.text, problems), signal);
        parsed = parseAnswer(second.text);
        outcome = 'repaired';
        if ('problems' in parsed) {
          metrics.vlmAnswers.inc({ model, outcome: 'malformed' });
          // The same question at temperature 0 gets the same answer: another try would not help.
          throw new EngineError(USER_MESSAGES.vlmUnreadable, true, `The vision model at ${client.endpoint} (${model}) answered malformed JSON twice: ${parsed.problems}`);
        }
      }
      metrics.vlmAnswers.inc({ model, outcome });
      return recognizedFromAnswer(parsed.receipt, model, doc);
    },
    // Nothing is loaded here: the model lives on its server.
    close: async () => undefined,
  };
}
