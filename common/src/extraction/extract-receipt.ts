import type { ReceiptRecord } from '../receipt.schema.js';
import type { RecognizedDocument } from '../recognized-document.js';
import { itemLinesHold, itemsAgree, taxFromSum } from './arithmetic.rule.js';
import { categorize } from './category.rule.js';
import { findChain } from './chain.rule.js';
import { keyFieldDoubts, type KeyFieldEvidence } from './confidence.rule.js';
import type { IssueFlag } from './issue-codes.rules.js';
import { countryEntry, dateOrderOfCurrency } from './countries.table.js';
import { detectCurrency } from './currency.rule.js';
import { currencyForCountry } from '../currency-country.js';
import { findDateWithSource, findTimeWithSource, normalizeDayMonth } from './date.rule.js';
import { fieldMoney, fieldText, findPaymentMethodWithSource, findReceiptNumberWithSource, findTinWithSource, taxFromFields } from './fields.rule.js';
import { itemsFromFields, itemsFromTextWithSources, itemWords, MAX_ITEMS } from './items.rule.js';
import type { NameWeights } from './merchant-name.features.js';
import { findMerchant } from './merchant.rule.js';
import { amountReader, ZERO_DECIMAL_CURRENCIES } from './money.rule.js';
import { computeQuality, type FieldConfidences } from './quality.rule.js';
import type { TotalVoteWeights } from './total-vote.features.js';
import { findTotalsWithSources } from './totals.rule.js';
import { itemsIssue, sumConfirmsTotal, totalMismatch, totalTolerance } from './validation.rules.js';

export const RAW_TEXT_PREVIEW = 200;
/** How sure a value read from plain text by a rule is, compared with a service's own confidence. */
const TEXT_RULE_CONFIDENCE = 0.75;
/** How much less sure the total is when the printed fields disagree with it. */
const DISAGREEMENT_CONFIDENCE = 0.4;

/** Spec §9: 200 characters, then `...` when cut. */
export function rawTextPreview(text: string): string {
  return text.length > RAW_TEXT_PREVIEW ? `${text.slice(0, RAW_TEXT_PREVIEW)}...` : text;
}

/**
 * Simplified Chinese forms a recogniser trained on Chinese reads for Japanese kanji (合计 for 合計,
 * 领收证 for 領収証): Japanese never writes them, so they are mapped back before the keywords are matched.
 */
const JAPANESE_FORMS: Readonly<Record<string, string>> = {
  计: '計', 额: '額', 领: '領', 收: '収', 证: '証', 对: '対', 录: '録', 现: '現', 预: '預', 钱: '銭', 费: '費', 买: '買',
  卖: '売', 总: '総', 应: '応', 书: '書', 发: '発', 单: '単', 货: '貨', 务: '務', 业: '業',
};
/** Japanese characters standing one by one with spaces between ("合 計", "領 収 証"): OCR's spacing, not the text's. */
const SPACED_KANA_KANJI = /(?<![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}](?: [\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}](?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]))+/gu;

const cleanLine = (l: string) =>
  l
    .replace(/^[|!\s]+|[|\s]+$/g, '')
    .replace(/\s+/g, ' ')
    .replace(SPACED_KANA_KANJI, (m) => m.replace(/ /g, ''))
    .replace(/[\u4e00-\u9fff]/g, (c) => JAPANESE_FORMS[c] ?? c);

/** OCR text as trimmed, non-empty lines with the scanner's edge marks removed. */
export function textLines(content: string): string[] {
  return indexedLines(content).map((l) => l.text);
}

/** The non-empty cleaned lines with the index of each in `content.split('\n')`. */
export function indexedLines(content: string): Array<{ text: string; raw: number }> {
  const lines = content
    .split('\n')
    .map((l, raw) => ({ text: cleanLine(l.replace(/\r$/, '')), raw }))
    .filter((l) => l.text.length > 0);
  // An amount's cents wrapped onto a line of their own ("Subtotal 312." / "50"), as a reader splits a narrow column.
  const joined: typeof lines = [];
  for (const line of lines) {
    const previous = joined[joined.length - 1];
    if (previous && /\d[.,]$/.test(previous.text) && /^\d{1,2}$/.test(line.text)) previous.text += line.text;
    else joined.push({ ...line });
  }
  return joined;
}

function dateFromField(value: string | undefined, dayFirst: boolean): string | null {
  if (!value) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const parts = /^(\d{1,2})[\/\-.](\d{1,2})[\/\-.](\d{2,4})$/.exec(value);
  return parts ? normalizeDayMonth(Number(parts[1]), Number(parts[2]), Number(parts[3]), dayFirst) : null;
}

/** The single-value fields whose line on the receipt is recorded. */
export const SOURCED_FIELDS = ['merchantName', 'date', 'time', 'subtotal', 'tax', 'tip', 'discount', 'total', 'receiptNumber', 'tin', 'paymentMethod'] as const;
export type SourcedField = (typeof SOURCED_FIELDS)[number];

/**
 * Where each field was read: the index of its line in `doc.content.split('\n')`; for the items,
 * one entry per item in order (null for an item a person added).
 */
export type ReceiptSources = Partial<Record<SourcedField, number>> & { items?: Array<number | null> };

export interface ExtractOptions {
  /** The currency the user picked: the prior that strong evidence in the text may override. */
  currencyCode?: string;
  now?: Date;
  /** How the total's candidates are weighed (the benchmark compares the hand-set and the fitted chooser). */
  totalVoteWeights?: TotalVoteWeights;
  /** How the merchant's candidate lines are weighed (likewise). */
  nameWeights?: NameWeights;
}

/**
 * The spec §5 extraction with where each field came from: the recognition service's fields
 * where it gave them (with their confidences), the text rules for the rest, then category and
 * quality. The currency is decided first, since it settles the day/month order and whether
 * amounts have decimals. A total that the printed subtotal, tax, tip and discount contradict
 * lowers the quality (and the validation reports the mismatch) instead of being silently replaced.
 */
export function extractReceiptWithSources(doc: RecognizedDocument, options: ExtractOptions = {}): { receipt: ReceiptRecord; sources: ReceiptSources; doubts: IssueFlag[] } {
  const fields = doc.documents[0]?.fields ?? {};
  const indexed = indexedLines(doc.content);
  const lines = indexed.map((l) => l.text);
  const rawIndex = (i: number | undefined) => (i === undefined ? undefined : indexed[i]?.raw);
  const text = lines.join('\n');
  // A known chain places the receipt and names the merchant: looked for once.
  const chain = findChain(lines);
  const currencyDecision = detectCurrency(fieldText(fields.CurrencyCode) ?? fieldText(fields.Currency), text, options.currencyCode, chain);
  const currency = currencyDecision.code;
  // The receipt's country writes dates its way; without one, the countries of the currency (printed or chosen) do.
  const dateOrder = countryEntry(currencyDecision.country)?.dateOrder ?? (currencyDecision.printed > 0 || currencyDecision.hinted ? dateOrderOfCurrency(currency) : null);
  const dayFirst = (dateOrder ?? dateOrderOfCurrency(currency) ?? 'dmy') === 'dmy';
  const wholeAmounts = ZERO_DECIMAL_CURRENCIES.has(currency);
  const { totals: fromText, sources: totalSources, contradicted, taxLabelLine, evidence: totalVotes, rates } = findTotalsWithSources(lines, amountReader(currency), currency, options.totalVoteWeights);
  const confidences: FieldConfidences = {};
  const sources: ReceiptSources = {};

  // A chain that does not trade in the receipt's currency was misread (an "IGA" in a Malaysian shop's name): it names nothing.
  const merchant = findMerchant(fields.MerchantName, lines, chain && tradesIn(chain.chain.countries, currency) ? chain : null, options.nameWeights);
  if (merchant) {
    confidences.merchant = merchant.confidence;
    sources.merchantName = rawIndex(merchant.line);
  }


  const dateField = dateFromField(fieldText(fields.TransactionDate), dayFirst);
  const dateFromText = dateField ? null : findDateWithSource(lines, dayFirst, options.now);
  const date = dateField ?? dateFromText?.date ?? null;
  if (date) confidences.date = dateField ? (fields.TransactionDate?.confidence ?? TEXT_RULE_CONFIDENCE) : TEXT_RULE_CONFIDENCE;
  sources.date = rawIndex(dateFromText?.line);

  const timeField = fieldText(fields.TransactionTime);
  const timeFromText = timeField ? null : findTimeWithSource(lines, dateFromText?.line);
  sources.time = rawIndex(timeFromText?.line);

  const subtotal = fieldMoney(fields.Subtotal) ?? fromText.subtotal;
  const serviceItems = itemsFromFields(fields.Items);
  const textItems = serviceItems.length > 0 ? [] : itemsFromTextWithSources(lines, wholeAmounts);
  const items = serviceItems.length > 0 ? serviceItems.slice(0, MAX_ITEMS) : textItems.map((f) => f.item);
  if (textItems.length > 0) sources.items = textItems.map((f) => rawIndex(f.line)!);

  const totalField = fieldMoney(fields.Total);
  // No total legible at all: the items' sum is the best the receipt says, and a guess.
  const itemsSum = textItems.length > 0 ? Math.round(items.reduce((sum, i) => sum + (i.amount ?? 0), 0) * 100) / 100 : null;
  const total = totalField ?? fromText.total ?? (itemsSum !== null && itemsSum > 0 ? itemsSum : null);
  if (total !== null) {
    confidences.total = totalField !== null ? (fields.Total?.confidence ?? TEXT_RULE_CONFIDENCE) : fromText.total !== null ? TEXT_RULE_CONFIDENCE : DISAGREEMENT_CONFIDENCE;
  }
  if (totalField === null) sources.total = rawIndex(totalSources.total);
  const itemsTotal = items.reduce((s, i) => s + (i.amount ?? 0), 0);
  if (items.length > 0) {
    // Items that add up to the receipt's sum were read right; others are a guess. A service's
    // items are taken at its word only while they add up too (a vision model may invent a line).
    const agree = itemsAgree(itemsTotal, items.length, subtotal, total);
    const serviceConfidence = fields.Items?.confidence ?? TEXT_RULE_CONFIDENCE;
    confidences.items =
      serviceItems.length > 0 ? (agree && itemLinesHold(items) ? serviceConfidence : Math.min(serviceConfidence, DISAGREEMENT_CONFIDENCE)) : agree ? 0.8 : 0.4;
  }

  // A tax line printed without an amount we could read: the subtotal (printed, or the sum of two or
  // more items) and the printed total say what it was.
  const itemsSubtotal = textItems.length >= 2 && items.every((i) => i.amount != null) ? itemsSum : null;
  const taxUnread = fromText.tax === null && fromText.tip === null && fromText.discount === null && taxLabelLine >= 0;
  const derivedTax = taxUnread ? taxFromSum(fromText.subtotal ?? itemsSubtotal, fromText.total, currency) : null;
  const derivedSubtotal = derivedTax !== null && fromText.subtotal === null ? itemsSubtotal : null;

  const pick = <T>(fromField: T | null | undefined, fromRule: T | null, source: number | undefined, name: SourcedField): T | null => {
    if (fromField !== null && fromField !== undefined) return fromField;
    if (fromRule !== null) sources[name] = rawIndex(source);
    return fromRule;
  };
  const receiptNumber = findReceiptNumberWithSource(fields, lines);
  const tin = findTinWithSource(fields, lines);
  const payment = findPaymentMethodWithSource(fields, lines);
  const record: ReceiptRecord = {
    merchantName: merchant?.name,
    date: date ?? undefined,
    time: timeField ?? timeFromText?.time ?? undefined,
    currency: currency === 'USD' ? undefined : currency,
    subtotal: pick(fieldMoney(fields.Subtotal), fromText.subtotal ?? derivedSubtotal, totalSources.subtotal, 'subtotal'),
    tax: pick(taxFromFields(fields), fromText.tax ?? derivedTax, totalSources.tax ?? (derivedTax !== null ? taxLabelLine : undefined), 'tax'),
    tip: pick(fieldMoney(fields.Tip), fromText.tip, totalSources.tip, 'tip'),
    discount: pick(fieldMoney(fields.Discount), fromText.discount, totalSources.discount, 'discount'),
    total,
    paymentMethod: payment?.value,
    // A chain that named the merchant (in the header, or standing in for a header with no name) says what it sells.
    category: categorize(merchant?.name, itemWords(items), merchant?.via === 'chain' || merchant?.via === 'mention' ? chain?.chain.name : undefined),
    receiptNumber: receiptNumber?.value,
    tin: tin?.value,
    quality: 0,
    items,
    rawText: rawTextPreview(doc.content.trim()),
  };
  // The rates as printed, while they make the tax recorded (not a recognition service's).
  if (rates.length > 0 && record.tax === fromText.tax) record.taxRates = rates;
  const printedSubtotal = record.subtotal;
  netInclusiveSubtotal(record);
  if (receiptNumber?.line !== undefined) sources.receiptNumber = rawIndex(receiptNumber.line);
  if (tin?.line !== undefined) sources.tin = rawIndex(tin.line);
  if (payment?.line !== undefined) sources.paymentMethod = rawIndex(payment.line);
  const disagreement = totalMismatch(record) !== null || (totalField === null && contradicted);
  if (confidences.total !== undefined && disagreement) confidences.total = Math.min(confidences.total, DISAGREEMENT_CONFIDENCE);
  record.quality = computeQuality(confidences, doc.documents[0]?.confidence);
  for (const key of Object.keys(sources) as Array<keyof ReceiptSources>) if (sources[key] === undefined) delete sources[key];
  const evidence: KeyFieldEvidence = {
    total: {
      value: record.total ?? null,
      byService: totalField !== null,
      votes: totalField === null ? totalVotes : undefined,
      // As printed, before a VAT-inclusive subtotal is taken net of its tax (which would make it agree by construction).
      sumAgrees: sumConfirmsTotal({ ...record, subtotal: printedSubtotal }),
      // Items making the subtotal confirm the total through sumAgrees; here they make the total itself.
      itemsAgree: items.length >= 2 && record.total != null && itemsAgree(itemsTotal, items.length, null, record.total) && itemLinesHold(items),
      contradicted: disagreement,
      readAgainAgrees: readAgainAgrees(doc, sources.total, record.total, currency),
      itemsDisagree: itemsIssue(record) !== null,
    },
    date: { value: record.date ?? null, byService: dateField !== null, eitherWay: dateFromText?.eitherWay ?? false, farFromOthers: dateFromText?.farFromOthers ?? false },
    merchant,
    merchantLineConfidence: sources.merchantName === undefined ? null : (doc.lines?.[sources.merchantName]?.confidence ?? null),
    currency: currencyDecision,
    dateOrder,
  };
  return { receipt: record, sources, doubts: keyFieldDoubts(evidence) };
}

/** The other reader's text of the total's line holds the total. */
function readAgainAgrees(doc: RecognizedDocument, line: number | undefined, total: number | null | undefined, currency: string): boolean {
  const again = line === undefined ? undefined : doc.lines?.[line]?.readAgain;
  return again !== undefined && total != null && amountReader(currency)(again).some((a) => Math.abs(a - total) < 0.005);
}

const tradesIn = (countries: readonly string[], currency: string) => countries.some((c) => currencyForCountry(c) === currency);


/**
 * Where prices include the tax (VAT-inclusive receipts, 内税) the printed subtotal already holds
 * it and equals the total; the record's subtotal is the amount before tax (spec §5's
 * subtotal + tax + tip − discount = total), so such a subtotal is recorded net of its tax.
 */
export function netInclusiveSubtotal(r: ReceiptRecord): void {
  if (r.total == null || r.subtotal == null || r.tax == null || r.tax <= 0) return;
  const rest = (r.tip ?? 0) - (r.discount ?? 0);
  const tolerance = totalTolerance(r.total) + 1e-9;
  const inclusive = Math.abs(r.subtotal + rest - r.total) <= tolerance && Math.abs(r.subtotal + r.tax + rest - r.total) > tolerance;
  if (inclusive) r.subtotal = Math.round((r.subtotal - r.tax) * 100) / 100;
}

/** The spec §5 extraction: the record alone. */
export function extractReceipt(doc: RecognizedDocument, options: ExtractOptions = {}): ReceiptRecord {
  return extractReceiptWithSources(doc, options).receipt;
}
