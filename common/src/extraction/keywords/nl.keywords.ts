import type { KeywordTable } from './keyword-table.js';

export const NL_KEYWORDS: KeywordTable = {
  language: 'nl',
  total: ['totaal', 'bedrag', 'som'],
  grandTotal: ['te\\s*betalen', 'totaal\\s*te\\s*betalen', 'eindtotaal', 'totaalbedrag'],
  subtotal: ['subtotaal', 'sub[\\s-]*totaal', 'excl\\.?\\s*btw'],
  tax: ['btw', 'b\\.t\\.w\\.?'],
  taxIncluded: ['incl\\.?', 'inclusief'],
  tip: ['fooi'],
  suggestion: ['voorgesteld(e)?', 'suggestie'],
  discount: ['korting', 'bonus', 'actie', 'voordeel', 'statiegeld\\s*retour', 'emballage'],
  rounding: ['afronding'],
  change: ['wisselgeld', 'terug'],
  cash: ['contant', 'kontant', 'ontvangen'],
  card: [
    // First on its line: "PIN 12,50" pays; "HAIR PIN 1.20" is an item.
    '(?<=^[^\\p{L}]{0,3})pin', 'pinnen', 'betaald', 'maestro', 'v\\s*pay', 'bankpas', 'creditcard'],
  count: ['artikelen', 'aantal', 'stuks'],
  taxBase: ['grondslag'],
  date: ['datum'],
  time: ['tijd'],
  receiptNumber: ['bon(nummer|nr)?', 'factuur(nummer)?', 'transactie', 'ticket'],
  tin: ['btw[\\s-]*(nr|nummer|id)', 'kvk', 'kvk[\\s-]*nr'],
  otherDate: ['geldig', 'vervalt', 'tot', 'punten', 'periode'],
  business: ['b\\.?v', 'n\\.?v', 'v\\.?o\\.?f', 'bakkerij', 'apotheek', 'winkel', 'markt'],
  greeting: ['welkom', 'bedankt', 'dank\\s*u(\\s*wel)?'],
  documentTitle: ['kassabon', 'bon', 'factuur', 'kwitantie'],
  address: ['straat', 'laan', 'weg', 'plein', 'gracht'],
  contact: ['telefoon', 'tel\\.?'],
  servedBy: ['kassi(è|e)re', 'medewerker'],
  staff: ['kassa', 'tafel'],
  columnHeader: ['aantal', 'omschrijving', 'prijs', 'bedrag'],
  months: {
    januari: 1, jan: 1, februari: 2, feb: 2, maart: 3, mrt: 3, april: 4, apr: 4, mei: 5, juni: 6, jun: 6, juli: 7, jul: 7,
    augustus: 8, aug: 8, september: 9, sep: 9, sept: 9, oktober: 10, okt: 10, november: 11, nov: 11, december: 12, dec: 12,
  },
};
