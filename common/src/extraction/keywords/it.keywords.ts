import type { KeywordTable } from './keyword-table.js';

export const IT_KEYWORDS: KeywordTable = {
  language: 'it',
  total: ['totale', 'importo'],
  grandTotal: ['totale\\s*(complessivo|euro|da\\s*pagare|documento)', 'importo\\s*(pagato|da\\s*pagare)', 'da\\s*pagare'],
  subtotal: ['subtotale', 'sub[\\s-]*totale', 'imponibile'],
  tax: ['iva', 'imposta'],
  taxIncluded: ['di\\s*cui', 'incl(usa)?\\.?', 'compresa'],
  tip: ['mancia'],
  suggestion: ['suggerit[oa]', 'consigliat[oa]'],
  discount: ['sconto', 'sconti', 'buono', 'coupon', 'promozione', 'risparmio'],
  rounding: ['arrotondamento'],
  change: ['resto'],
  cash: ['contanti', 'contante', 'pagamento\\s*contante'],
  card: ['carta', 'bancomat', 'pagamento\\s*elettronico', 'pos'],
  count: ['pezzi', 'articoli', 'n\\.?\\s*pezzi'],
  taxBase: [],
  date: ['data'],
  time: ['ora'],
  receiptNumber: ['scontrino', 'documento', 'doc\\.?\\s*n', 'fattura', 'ricevuta'],
  tin: ['p\\.?\\s*iva', 'partita\\s*iva', 'c\\.?\\s*f\\.?', 'codice\\s*fiscale'],
  otherDate: ['valid[oa]', 'scadenza', 'scade', 'fino\\s*al', 'punti', 'periodo'],
  months: {
    gennaio: 1, gen: 1, febbraio: 2, feb: 2, marzo: 3, mar: 3, aprile: 4, apr: 4, maggio: 5, mag: 5, giugno: 6, giu: 6,
    luglio: 7, lug: 7, agosto: 8, ago: 8, settembre: 9, set: 9, ottobre: 10, ott: 10, novembre: 11, nov: 11, dicembre: 12, dic: 12,
  },
};
