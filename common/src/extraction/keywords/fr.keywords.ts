import type { KeywordTable } from './keyword-table.js';

export const FR_KEYWORDS: KeywordTable = {
  language: 'fr',
  total: ['total', 'montant', 'somme'],
  grandTotal: ['net\\s*(à|a)\\s*payer', 'total\\s*ttc', 'montant\\s*ttc', '(à|a)\\s*payer', 'total\\s*(à|a)\\s*payer'],
  subtotal: ['sous[\\s-]*total', 'total\\s*ht', 'montant\\s*ht', 'hors\\s*taxes?'],
  tax: ['tva', 'taxes?', 't\\.v\\.a\\.?'],
  taxIncluded: ['dont', 'ttc', 'incluse?'],
  tip: ['pourboire'],
  suggestion: ['sugg(é|e)r(é|e)e?s?'],
  discount: ['remise', 'r(é|e)duction', 'rabais', 'bon\\s*d.achat', 'coupon', 'avantage', '(é|e)conomie'],
  rounding: ['arrondi'],
  change: ['rendu', 'rendu\\s*monnaie', 'monnaie'],
  cash: ['esp(è|e)ces', 'esp\\.?', 'liquide'],
  card: ['carte(\\s*bancaire)?', 'cb', 'carte\\s*bleue', 'paiement', 'r(è|e)glement'],
  count: ['articles?', 'nb\\s*art', 'nombre'],
  taxBase: ['base\\s*tva'],
  date: ['date'],
  time: ['heure'],
  receiptNumber: ['ticket', 'facture', 'n(°|o)\\s*ticket', 'caisse', 'transaction', 'doc'],
  tin: ['siret', 'siren', 'tva\\s*intra(communautaire)?', 'n(°|o)\\s*tva', 'tua'],
  otherDate: ['valable', 'validit(é|e)', 'expir(e|ation)', 'jusqu', 'points?', 'p(é|e)riode', 'du', 'au'],
  months: {
    janvier: 1, janv: 1, février: 2, fevrier: 2, févr: 2, fevr: 2, mars: 3, avril: 4, avr: 4, mai: 5, juin: 6, juillet: 7, juil: 7,
    août: 8, aout: 8, septembre: 9, sept: 9, octobre: 10, oct: 10, novembre: 11, nov: 11, décembre: 12, decembre: 12, déc: 12, dec: 12,
  },
};
