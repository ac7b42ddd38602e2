import type { KeywordTable } from './keyword-table.js';

export const DE_KEYWORDS: KeywordTable = {
  language: 'de',
  ocrModel: 'deu',
  ocrMarkers: ['summe', 'mwst', 'ust', 'betrag', 'rückgeld', 'zurück', 'gegeben', 'kasse', 'netto', 'brutto', 'gesamt', 'bonnr', 'danke', 'einkauf', 'steuer'],
  total: ['summe', 'gesamt', 'gesamtbetrag', 'endbetrag', 'endsumme', 'total'],
  // "Zahlen" alone too: OCR often misreads the short "zu" before it.
  grandTotal: ['(?:zu\\s*)?zahlen', 'zahlbetrag', 'gesamtsumme', 'rechnungsbetrag', 'endbetrag', 'zu\\s*zahlender\\s*betrag'],
  subtotal: ['zwischensumme', 'netto', 'nettobetrag', 'summe\\s*netto'],
  tax: ['mwst', 'mw\\.?\\s*st\\.?', 'ust', 'umsatzsteuer', 'mehrwertsteuer', 'steuer'],
  taxIncluded: ['inkl\\.?', 'enth(alten|\\.)?', 'incl\\.?'],
  tip: ['trinkgeld'],
  suggestion: ['empfohlen(es)?', 'vorschlag'],
  discount: ['rabatt', 'nachlass', 'preisvorteil', 'ersparnis', 'gutschein', 'coupon', 'aktion', 'sie\\s*sparen', 'leergut', 'pfandr(ü|ue)ckgabe'],
  rounding: ['rundung'],
  change: ['r(ü|u|ue)ckgeld', 'zur(ü|u|ue)ck', 'wechselgeld'],
  // "Bar" is cash only as a payment label ("Geg. BAR EUR 20,05", "Bar 50,00"), not in "Snickers Bar 1,29".
  cash: ['(?:^|(?<=geg(?:eben)?\\.?\\s{0,3}))bar(?=\\s*(eur|€|\\d|$))', 'gegeben', 'geg\\.?', 'bargeld', 'barzahlung'],
  card: ['betrag', 'ec[\\s-]*karte', 'karte', 'kartenzahlung', 'girocard', 'ec[\\s-]*cash', 'kreditkarte', 'bezahlt'],
  count: ['posten', 'anzahl', 'artikel'],
  taxBase: ['steuerpflichtig'],
  date: ['datum', 'dat\\.?'],
  time: ['uhrzeit', 'zeit', 'uhr'],
  receiptNumber: ['bon[\\s-]*nr', 'beleg(nummer|[\\s-]*nr)?', 'rechnung(snummer|s[\\s-]*nr)?', 'quittung', 'bon', 'trace[\\s-]*nr', 'vorgang'],
  tin: ['ust[\\s.-]*id[\\s.-]*(nr)?', 'steuer[\\s-]*nr', 'steuernummer', 'st[\\s.-]*nr'],
  otherDate: ['g(ü|u|ue)ltig', 'ablauf', 'verfall', 'bis', 'punkte', 'zeitraum', 'mhd'],
  business: ['gmbh', 'ag', 'kg', 'ohg', 'e\\.?\\s?k', 'ug', 'b(ä|a)ckerei', 'markt', 'apotheke', 'tankstelle', 'gastst(ä|a)tte', 'metzgerei'],
  greeting: ['willkommen', 'danke', 'vielen\\s*dank'],
  documentTitle: ['kassenbon', 'kassenbeleg', 'rechnung', 'quittung', 'beleg', 'kundenbeleg', 'h(ä|a)ndlerbeleg'],
  // Street names are compounds ("Hauptstraße"): the street word ends the word.
  address: ['\\p{L}*str(aße|asse)', '\\p{L}*platz', 'weg', '\\p{L}*allee', 'ring', '\\p{L}*gasse'],
  contact: ['telefon', 'tel\\.?'],
  servedBy: ['bedient', 'kassierer(in)?', 'bediener'],
  staff: ['kasse', 'tisch', 'filiale'],
  columnHeader: ['artikel', 'menge', 'preis', 'betrag', 'bezeichnung'],
  summaryWords: ['zwischensumme', 'summe', 'gesamtbetrag'],
  categoryNames: {},
  categoryItems: {},
  months: {
    januar: 1, jan: 1, jänner: 1, februar: 2, feb: 2, märz: 3, maerz: 3, mär: 3, mrz: 3, april: 4, apr: 4, mai: 5, juni: 6, jun: 6,
    juli: 7, jul: 7, august: 8, aug: 8, september: 9, sep: 9, sept: 9, oktober: 10, okt: 10, november: 11, nov: 11, dezember: 12, dez: 12,
  },
};
