import type { CurrencyDecision } from './currency.rule.js';
import type { FoundMerchant } from './merchant.rule.js';
import type { TotalEvidence } from './totals.rule.js';
import { ISSUE_TEXTS, type IssueCode } from './validation.rules.js';

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
  };
  date: {
    value: string | null;
    byService: boolean;
    /** Day and month both ≤ 12, their order taken from the country's custom. */
    eitherWay: boolean;
    farFromOthers: boolean;
  };
  merchant: FoundMerchant | null;
  currency: CurrencyDecision;
  /** How the receipt's country writes numeric dates, when the evidence names a country. */
  dateOrder: 'dmy' | 'mdy' | 'either' | null;
}

/** A total label alone is trusted when it outvotes every other amount by this much (a "grand total" line and nothing against it). */
export const LABEL_MARGIN = 4;
/** What the receipt must print for its currency to be taken as read: a code beside an amount, a sign, or the country's words twice. */
export const PRINTED_CURRENCY = 2;

/** Payments and tax tables that state the same amount as the total confirm it. */
const CONFIRMING = new Set(['payment', 'change', 'table', 'sum']);

/** Doubts about the total: none, or what a person should check. */
export function totalDoubt(e: KeyFieldEvidence['total']): IssueCode | null {
  if (e.value === null) return 'totalNotFound';
  if (e.byService) return e.contradicted ? 'totalUnconfirmed' : null;
  const votes = e.votes;
  if (votes && (votes.fromSubtotal || (votes.blankLabel && !e.sumAgrees))) return 'totalHandwritten';
  if (e.contradicted) return 'totalUnconfirmed';
  const confirmed = e.sumAgrees || e.itemsAgree || (votes?.support.some((s) => CONFIRMING.has(s)) ?? false);
  const plainlyLabelled = votes !== undefined && votes.support.includes('strong') && votes.margin >= LABEL_MARGIN;
  return confirmed || plainlyLabelled ? null : 'totalUnconfirmed';
}

export function dateDoubt(e: KeyFieldEvidence['date'], dateOrder: KeyFieldEvidence['dateOrder']): IssueCode | null {
  if (e.value === null) return 'dateNotFound';
  if (e.byService) return null;
  if (e.farFromOthers) return 'dateFarFromOthers';
  // The country's custom settles the order only where the receipt names a country that keeps one.
  if (e.eitherWay && (dateOrder === null || dateOrder === 'either')) return 'dateEitherWay';
  return null;
}

export function merchantDoubt(m: FoundMerchant | null): IssueCode | null {
  if (m === null) return 'merchantNotFound';
  if (m.via === 'service' || m.via === 'chain') return null;
  if (m.via === 'header' && m.rank === 0) return null;
  return 'merchantBelowHeader';
}

export function currencyDoubt(c: CurrencyDecision): IssueCode | null {
  if (c.printed >= PRINTED_CURRENCY) return null;
  if (c.hinted) return 'currencyAssumed';
  return c.code === 'USD' && c.printed === 0 ? 'currencyDefault' : 'currencyWeak';
}

/** The flags a receipt's key fields raise, as the messages people read, in field order. */
export function keyFieldDoubts(e: KeyFieldEvidence): string[] {
  return [totalDoubt(e.total), dateDoubt(e.date, e.dateOrder), merchantDoubt(e.merchant), currencyDoubt(e.currency)]
    .filter((code): code is IssueCode => code !== null)
    .map((code) => ISSUE_TEXTS[code]);
}
