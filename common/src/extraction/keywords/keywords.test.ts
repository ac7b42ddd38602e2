import { describe, expect, it } from 'vitest';
import { KEYWORD_TABLES, keywordPattern, MONTH_NAMES, says, type KeywordKind } from './index.js';

describe('keyword tables', () => {
  it('has a table for every language the rules read', () => {
    expect(KEYWORD_TABLES.map((t) => t.language)).toEqual(['en', 'de', 'fr', 'es', 'pt', 'nl', 'it', 'ja', 'ms', 'fil', 'ro']);
  });

  it.each<[KeywordKind, string[]]>([
    ['total', ['TOTAL 12.50', 'SUMME EUR 16,45', 'Montant 45,00', 'Importe 37,85', 'Valor 23,45', 'TOTAAL 12,50', 'TOTALE 18,40', '合計 ¥1,339']],
    ['grandTotal', ['AMOUNT DUE 9.99', 'Zu zahlen 11,90', 'NET A PAYER 45,00', 'TOTAL A PAGAR 27,35', 'Te betalen 12,50', 'TOTALE COMPLESSIVO 18,40', 'お支払合計 1,339']],
    ['subtotal', ['Sub-Total 9.00', 'Zwischensumme 10,00', 'Sous-total 40,00', 'Base imponible 42,00', 'Subtotaal 11,47', 'Imponibile 15,08', '小計 1,240']],
    ['tax', ['GST 0.54', 'HST 13% 3.14', 'MwSt 19% 1,90', 'TVA 20% 7,50', 'IVA 21% 21,00', 'BTW 9% 1,03', 'Sales tax 3.17', '消費税 99']],
    ['taxIncluded', ['incl. VAT', 'inkl. MwSt', 'dont TVA', 'IVA incluido', 'di cui IVA', '内税']],
    ['tip', ['Tip 8.00', 'Gratuity 5.00', 'Trinkgeld 2,00', 'Pourboire 3,00', 'Propina 8.450', 'Gorjeta 2,00', 'Fooi 1,00', 'Mancia 2,00', 'チップ 500']],
    ['change', ['CHANGE 7.50', 'Rückgeld 4,00', 'Rendu 5,00', 'Cambio 0,00', 'Troco 2,65', 'Wisselgeld 1,00', 'RESTO 1,60', 'お釣り ¥661']],
    ['cash', ['CASH 20.00', 'BAR 20,45', 'Espèces 50,00', 'Efectivo 20,00', 'Dinheiro 30,00', 'Contant 20,00', 'CONTANTI 20,00', 'お預り ¥2,000']],
    ['receiptNumber', ['Receipt # 1234', 'Bon-Nr.:417', 'N° ticket 0041876', 'Factura F-12', 'Scontrino 0042', 'Bonnummer 77', 'レシート番号 1234']],
    ['business', ['ACME SDN BHD', 'Müller GmbH', 'Lotus Thai Restaurant', 'SARL Dupont', 'Trattoria Da Enzo', 'イオン株式会社', 'SC MAGAZIN SRL']],
    ['greeting', ['Thank you', 'Vielen Dank', 'Terima kasih', 'Salamat po', 'Vă mulțumim']],
    ['address', ['12 Main Street', 'Hauptstraße 5', 'Jalan Ampang', 'Brgy. San Isidro', 'Strada Florilor 3']],
    ['servedBy', ['Served by Daniel', 'Kassierer: 3', 'Juruwang 2', 'Casier 1']],
    ['staff', ['TABLE 19', 'Check:137', 'Meja 4']],
    ['columnHeader', ['QTY DESCRIPTION PRICE', 'Artikel Menge Preis', 'Denumire Cantitate Preț']],
    ['change', ['BAKI 0.20', 'Sukli 20.00', 'Rest 5,00']],
    ['cash', ['TUNAI 50.00', 'Numerar 100,00']],
    ['grandTotal', ['JUMLAH 12.50', 'Total de plată 100,00']],
    ['otherDate', ['EXP 12/28', 'gültig bis 31.12.2026', 'valable jusqu’au', 'válido hasta', 'Punkte', '有効期限']],
  ])('%s reads %j', (kind, lines) => {
    for (const line of lines) expect(says(kind, line), line).toBe(true);
  });

  it('matches whole words in spaced languages', () => {
    expect(says('cash', 'BARCODE 123')).toBe(false);
    expect(says('tax', 'TAXI RANK')).toBe(false);
    expect(says('tip', 'TIPTREE JAM 2.50')).toBe(false);
  });

  it('builds stateless patterns', () => {
    expect(keywordPattern('total').global).toBe(false);
  });

  it.each<[string, number]>([
    ['january', 1], ['mär', 3], ['juin', 6], ['agosto', 8], ['outubro', 10], ['okt', 10], ['dicembre', 12],
  ])('month %s → %d', (name, month) => {
    expect(MONTH_NAMES.get(name)).toBe(month);
  });
});
