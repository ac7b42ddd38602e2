import { describe, expect, it } from 'vitest';
import { currencyDoubt, dateDoubt, keyFieldDoubts, merchantDoubt, totalDoubt, type KeyFieldEvidence } from './confidence.rule.js';
import type { TotalSupport } from './totals.rule.js';
import { renderIssue } from './issue-codes.rules.js';
import { ISSUE_TEXTS } from './validation.rules.js';

const votes = (support: TotalSupport[], extra: Partial<{ fromSubtotal: boolean; blankLabel: boolean }> = {}) => ({ support, fromSubtotal: false, blankLabel: false, ...extra });
const total = (e: Partial<KeyFieldEvidence['total']>): KeyFieldEvidence['total'] => ({
  value: 12.5,
  byService: false,
  sumAgrees: false,
  itemsAgree: false,
  contradicted: false,
  readAgainAgrees: false,
  itemsDisagree: false,
  ...e,
});

describe('doubts about the total', () => {
  it.each<[string, Partial<KeyFieldEvidence['total']>, string | null]>([
    ['none read', { value: null }, 'totalNotFound'],
    ['a total line alone', { votes: votes(['total']) }, 'totalUnconfirmed'],
    ['a grand-total line alone', { votes: votes(['strong']) }, 'totalUnconfirmed'],
    ['a card line alone', { votes: votes(['payment']) }, 'totalUnconfirmed'],
    ['a total line and a card line of the same amount', { votes: votes(['total', 'payment']) }, null],
    ['a total line and cash less change', { votes: votes(['inclusive', 'change']) }, null],
    ['a total line with subtotal and tax adding up', { votes: votes(['total', 'sum']), sumAgrees: true }, null],
    ['a total line with the items adding up', { votes: votes(['total', 'table']), itemsAgree: true }, null],
    ['a tax table and a total line, nothing else', { votes: votes(['inclusive', 'table']) }, 'totalUnconfirmed'],
    ['three kinds of line', { votes: votes(['strong', 'table', 'payment']) }, null],
    ['cash less change saying another amount', { votes: votes(['total', 'payment']), contradicted: true }, 'totalUnconfirmed'],
    ['the subtotal standing in for a total never printed', { votes: votes([], { fromSubtotal: true }) }, 'totalHandwritten'],
    ['a tip line left blank', { votes: votes(['total', 'payment'], { blankLabel: true }) }, 'totalHandwritten'],
    ['a tip line left blank, but the printed sum makes the total', { votes: votes(['total', 'sum'], { blankLabel: true }), sumAgrees: true }, null],
    ['a total line the other reader read the same', { votes: votes(['total']), readAgainAgrees: true }, null],
    ['a total line the other reader read the same, but the items make another sum', { votes: votes(['total']), readAgainAgrees: true, itemsDisagree: true }, 'totalUnconfirmed'],
    ['a card line alone, read the same by the other reader (which line is the total is not a reading)', { votes: votes(['payment']), readAgainAgrees: true }, 'totalUnconfirmed'],
    ['a total line the other reader read the same, but cash less change says another amount', { votes: votes(['total', 'payment']), readAgainAgrees: true, contradicted: true }, 'totalUnconfirmed'],
    ['a subtotal standing in, read the same by the other reader', { votes: votes([], { fromSubtotal: true }), readAgainAgrees: true }, 'totalHandwritten'],
    ['the service’s field', { byService: true }, null],
    ['the service’s field, contradicted', { byService: true, contradicted: true }, 'totalUnconfirmed'],
  ])('%s → %s', (_, e, code) => {
    expect(totalDoubt(total(e))).toBe(code);
  });
});

describe('doubts about the date', () => {
  const date = { value: '2026-05-07', byService: false, eitherWay: false, farFromOthers: false };
  it.each<[string, Partial<KeyFieldEvidence['date']>, KeyFieldEvidence['dateOrder'], string | null]>([
    ['none read', { value: null }, null, 'dateNotFound'],
    ['day over 12', {}, null, null],
    ['either way, the country writing day first', { eitherWay: true }, 'dmy', null],
    ['either way, the country writing month first', { eitherWay: true }, 'mdy', null],
    ['either way, a country writing both (Canada)', { eitherWay: true }, 'either', 'dateEitherWay'],
    ['either way, no country named', { eitherWay: true }, null, 'dateEitherWay'],
    ['years from the receipt’s other dates', { farFromOthers: true }, 'dmy', 'dateFarFromOthers'],
  ])('%s → %s', (_, e, order, code) => {
    expect(dateDoubt({ ...date, ...e }, order)).toBe(code);
  });
});

describe('doubts about the merchant', () => {
  it.each<[string, Parameters<typeof merchantDoubt>[0], number | null, string | null]>([
    ['none', null, null, 'merchantNotFound'],
    ['a known chain in the header', { name: 'Lidl', confidence: 0.8, via: 'chain' }, null, null],
    ['a chain named elsewhere, no name in the header', { name: 'Lidl', confidence: 0.5, via: 'mention' }, null, null],
    ['the first name-like line, with a business word', { name: 'ACME TRADING SDN BHD', confidence: 0.7, via: 'header', rank: 0, score: 5 }, null, null],
    ['the first name-like line, nothing saying it is a business', { name: 'ZENITH OPTICAL', confidence: 0.5, via: 'header', rank: 0, score: 1 }, null, 'merchantUnconfirmed'],
    ['the first name-like line, read surely', { name: 'ZENITH OPTICAL', confidence: 0.5, via: 'header', rank: 0, score: 1 }, 0.97, null],
    ['the first name-like line, read unsurely (a logo’s scraps)', { name: 'Wr-fnetq ouxo', confidence: 0.5, via: 'header', rank: 0, score: 1 }, 0.61, 'merchantUnconfirmed'],
    ['the first name-like line, printed again below', { name: 'Lotus Thai', confidence: 0.5, via: 'header', rank: 0, score: 1, repeated: true }, null, null],
    ['a line under others', { name: 'Family Restaurant', confidence: 0.7, via: 'header', rank: 1, score: 4 }, null, 'merchantBelowHeader'],
    ['a name with a business word whose next line may be more of it', { name: 'HOLLOWAY HARDWARE', confidence: 0.7, via: 'header', rank: 0, score: 4, mayContinue: true }, null, 'merchantMayContinue'],
    ['a known chain, whatever follows it', { name: 'Lidl', confidence: 0.8, via: 'chain', mayContinue: true }, null, null],
    ['a line under titles only', { name: 'Family Restaurant', confidence: 0.7, via: 'header', rank: 1, score: 4, underTitlesOnly: true }, null, null],
    ['a line under others, read surely', { name: 'ELMWOOD PA', confidence: 0.5, via: 'header', rank: 2, score: 0 }, 0.99, 'merchantBelowHeader'],
    ['a name read surely whose next line may be more of it', { name: 'CANTINA', confidence: 0.5, via: 'header', rank: 0, score: 1, mayContinue: true }, 0.98, 'merchantMayContinue'],
    ['a legal name at the foot', { name: 'Feinkost Albers GmbH', confidence: 0.5, via: 'foot', rank: 8, score: 4 }, null, 'merchantBelowHeader'],
  ])('%s', (_, m, lineConfidence, code) => {
    expect(merchantDoubt(m, lineConfidence)).toBe(code);
  });
});

describe('doubts about the currency', () => {
  it.each<[string, Parameters<typeof currencyDoubt>[0], string | null]>([
    ['a code beside an amount', { code: 'EUR', printed: 3, hinted: false, country: null }, null],
    ['one country cue', { code: 'CAD', printed: 1.5, hinted: false, country: 'CA' }, null],
    ['a lone "$" and the user chose dollars', { code: 'USD', printed: 1, hinted: true, country: null }, null],
    ['a lone "$" and no choice', { code: 'USD', printed: 1, hinted: false, country: null }, 'currencyWeak'],
    ['nothing printed, the user’s choice', { code: 'MYR', printed: 0, hinted: true, country: null }, 'currencyAssumed'],
    ['nothing printed, no choice', { code: 'USD', printed: 0, hinted: false, country: null }, 'currencyDefault'],
  ])('%s → %s', (_, c, code) => {
    expect(currencyDoubt(c)).toBe(code);
  });
});

it('names each doubt with its message, in field order', () => {
  const doubts = keyFieldDoubts({
    total: total({ votes: votes(['total']) }),
    date: { value: '2026-05-07', byService: false, eitherWay: true, farFromOthers: false },
    merchant: { name: 'Lidl', confidence: 0.8, via: 'chain' },
    merchantLineConfidence: null,
    currency: { code: 'EUR', printed: 0, hinted: true, country: null },
    dateOrder: null,
  });
  expect(doubts.map(renderIssue)).toEqual([ISSUE_TEXTS.totalUnconfirmed, ISSUE_TEXTS.dateEitherWay, ISSUE_TEXTS.currencyAssumed]);
});
