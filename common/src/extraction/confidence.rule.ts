import type { CurrencyDecision } from './currency.rule.js';
import type { FoundMerchant } from './merchant.rule.js';
import type { TotalEvidence } from './totals.rule.js';
import { issueFlag, type IssueFlag } from './issue-codes.rules.js';
import type { IssueCode } from './validation.rules.js';

/**
 * What the key fields were read from: enough to say, field by field, whether a person should look
 * before the receipt is called ready for export.
 */
export interface KeyFieldEvidence {
  total: {
    value: number | null;
    /** The recognition service gave it as a field. */
    byService: boolean;
    /** How the printed lines voted (absent when the service gave it). */
    votes?: TotalEvidence;
    /** Subtotal + tax + tip − discount, as read, make the total. */
    sumAgrees: boolean;
    /** The items read add up to the total (or to a subtotal that does). */
    itemsAgree: boolean;
    /** The printed fields, or cash less change, say another amount. */
    contradicted: boolean;
    /** The other reader read the same amount on the total's line. */
    readAgainAgrees: boolean;
    /** Items were read, every one with its amount, and they make none of the receipt's sums. */
    itemsDisagree: boolean;
  };
  date: {
    value: string | null;
    byService: boolean;
    /** Day and month both ≤ 12, their order taken from the country's custom. */
    eitherWay: boolean;
    farFromOthers: boolean;
  };
  merchant: FoundMerchant | null;
  /** How surely the engine read the merchant's line (0..1, a text layer's 1), where the engine gives its lines. */
  merchantLineConfidence: number | null;
  currency: CurrencyDecision;
  /** How the receipt's country writes numeric dates, when the evidence names a country. */
  dateOrder: 'dmy' | 'mdy' | 'either' | null;
}

/** What the receipt must print for its currency to be taken as read: a sign, a code, or a country's cue; a lone "$" only backs a dollar the user chose. */
export const PRINTED_CURRENCY = 1.5;
/** A header line's name score (merchant.rule.ts) from which it is taken as the name: a business word, capitals, no noise. */
export const NAME_SCORE = 3;
/**
 * A header's first name-like line read this surely is printed text: where it is the wrong line, it is
 * mostly a logo's or the background's scraps read as letters, which engines read unsurely.
 */
export const LEGIBLE_NAME_LINE = 0.9;

const LABELS = new Set(['strong', 'inclusive', 'total', 'rounding']);
const PAYMENTS = new Set(['payment', 'change']);

/**
 * Doubts about the total: none, or what a person should check. A total is taken as read when
 * independent lines agree on it: three kinds of line, or two with the printed fields adding up
 * to it, or a total label and a payment (card, cash less change) of the same amount; or a total
 * label whose amount the other reader read alike, the items not saying otherwise (both readers
 * can misread a digit alike; and agreement says what the line reads, not that it is the total's:
 * an item's or a tax table's line read alike by both is no total).
 */
export function totalDoubt(e: KeyFieldEvidence['total']): IssueCode | null {
  if (e.value === null) return 'totalNotFound';
  if (e.byService) return e.contradicted ? 'totalUnconfirmed' : null;
  const votes = e.votes;
  if (votes && (votes.fromSubtotal || (votes.blankLabel && !e.sumAgrees))) return 'totalHandwritten';
  if (e.contradicted || !votes) return 'totalUnconfirmed';
  const support = new Set(votes.support);
  const arithmetic = e.sumAgrees || e.itemsAgree;
  const labelled = [...support].some((s) => LABELS.has(s));
  const labelAndPayment = labelled && [...support].some((s) => PAYMENTS.has(s));
  return support.size >= 3 || (arithmetic && support.size >= 2) || labelAndPayment || (labelled && e.readAgainAgrees && !e.itemsDisagree) ? null : 'totalUnconfirmed';
}

export function dateDoubt(e: KeyFieldEvidence['date'], dateOrder: KeyFieldEvidence['dateOrder']): IssueCode | null {
  if (e.value === null) return 'dateNotFound';
  if (e.byService) return null;
  if (e.farFromOthers) return 'dateFarFromOthers';
  // The country's custom settles the order only where the receipt names a country that keeps one.
  if (e.eitherWay && (dateOrder === null || dateOrder === 'either')) return 'dateEitherWay';
  return null;
}

export function merchantDoubt(m: FoundMerchant | null, lineConfidence: number | null = null): IssueCode | null {
  if (m === null) return 'merchantNotFound';
  // A known chain named in the header, or anywhere when the header names nothing else (its loyalty card, its web address).
  if (m.via === 'service' || m.via === 'chain' || m.via === 'mention') return null;
  if (m.via === 'foot' || ((m.rank ?? 0) > 0 && !m.underTitlesOnly)) return 'merchantBelowHeader';
  if (m.mayContinue) return 'merchantMayContinue';
  return (m.score ?? 0) >= NAME_SCORE || m.repeated || (lineConfidence ?? 0) >= LEGIBLE_NAME_LINE ? null : 'merchantUnconfirmed';
}

export function currencyDoubt(c: CurrencyDecision): IssueCode | null {
  if (c.printed >= PRINTED_CURRENCY || (c.hinted && c.printed > 0)) return null;
  if (c.hinted) return 'currencyAssumed';
  return c.code === 'USD' && c.printed === 0 ? 'currencyDefault' : 'currencyWeak';
}

/** The flags a receipt's key fields raise, in field order. */
export function keyFieldDoubts(e: KeyFieldEvidence): IssueFlag[] {
  return [totalDoubt(e.total), dateDoubt(e.date, e.dateOrder), merchantDoubt(e.merchant, e.merchantLineConfidence), currencyDoubt(e.currency)]
    .filter((code): code is IssueCode => code !== null)
    .map((code) => issueFlag(code));
}
