import { describe, expect, it } from 'vitest';
import type { ReceiptRecord } from '../receipt.schema.js';
import { extractReceipt } from './extract-receipt.js';
import { extractReceiptWithSources } from './extract-receipt.js';
import { renderIssue } from './issue-codes.rules.js';
import { ISSUE_TEXTS, validateReceipt } from './validation.rules.js';

/** Receipts as shops in each country print them (written for these tests), read without a hint. */
const RECEIPTS: Array<[string, string, Partial<ReceiptRecord>]> = [
  [
    'US diner with tip',
    `BLUE HERON DINER
1420 Harbor Blvd
Ventura, CA 93001
Server: Kim  Table 12
10/24/2025 7:42 PM
2 Coffee 6.00
1 Pancake Stack 11.50
1 Omelette 13.25
Subtotal 30.75
Sales Tax 2.38
Total 33.13
Tip 6.00
VISA ****4421 39.13
Card exp 08/27`,
    { merchantName: 'BLUE HERON DINER', date: '2025-10-24', time: '19:42', subtotal: 30.75, tax: 2.38, tip: 6, total: 39.13, currency: undefined },
  ],
  [
    'Canadian grocery without a currency sign',
    `FRESH FARM MARKET
88 Queen St W
Toronto ON M5H 2N2
GST/HST # 81234 5678 RT0001
2026/02/18 11:05
BANANAS 1.29
2% MILK 4L 6.49
SUBTOTAL 7.78
HST 13% 0.00
TOTAL 7.78
DEBIT 7.78`,
    { merchantName: 'FRESH FARM MARKET', date: '2026-02-18', currency: 'CAD', total: 7.78, subtotal: 7.78 },
  ],
  [
    'German supermarket with a tax table',
    `FRISCHMARKT Meyer GmbH
Lindenallee 4, 50667 Köln
EUR
ROGGENBROT 2,49 B
ORANGENSAFT 1L 1,79 A
PFAND 0,25 A
LEERGUT -0,25 A
--------------------------
SUMME EUR 4,28
Geg. BAR EUR 10,00
Rückgeld BAR EUR 5,72
Steuer % Netto Steuer Brutto
A= 19,0% 1,50 0,29 1,79
B= 7,0% 2,33 0,16 2,49
Gesamtbetrag 3,83 0,45 4,28
14.03.2026 18:02 Bon-Nr.:4711
Punkte gültig bis 31.12.2026`,
    { merchantName: 'FRISCHMARKT Meyer GmbH', date: '2026-03-14', time: '18:02', currency: 'EUR', total: 4.28, tax: 0.45, paymentMethod: 'cash', receiptNumber: '4711' },
  ],
  [
    'French café bill',
    `CAFE DU MARCHE
12 RUE DE LA PAIX
75002 PARIS
SIRET 512 804 367 00025
TABLE 7
1 CAFE CREME 4,50
2 CROISSANT 5,00
TOTAL TTC 9,50
dont TVA 10% 0,86
CB 9,50
LUNDI 07-09-2026 09:14:22
MERCI DE VOTRE VISITE`,
    { merchantName: 'CAFE DU MARCHE', date: '2026-09-07', currency: 'EUR', total: 9.5, tax: 0.86, paymentMethod: 'card' },
  ],
  [
    'Spanish supermarket',
    `SUPERMERCADOS LUNA S.L.
C/ Mayor 12, 28013 Madrid
NIF B12345678
FACTURA SIMPLIFICADA 0241-000587
27.10.2026 17:15
1 PIMIENTO ROJO 1,06
2 BARR. MIEL 1,65 3,30
Total factura: 4,36
IMPORTE A ABONAR 4,36
Tarj. Crédito 4,36
Cambio 0,00`,
    { merchantName: 'SUPERMERCADOS LUNA S.L.', date: '2026-10-27', currency: 'EUR', total: 4.36, paymentMethod: 'card' },
  ],
  [
    'Japanese supermarket in yen',
    `スーパーみどり 川崎店
2026年6月20日(土) 15:27
レジ0003
牛乳 198
食パン 2点 x 120 240
小計 ¥438
(内消費税等 ¥32)
合計 ¥438
お預り ¥1,000
お釣り ¥562`,
    { merchantName: 'スーパーみどり 川崎店', date: '2026-06-20', time: '15:27', currency: 'JPY', total: 438, tax: 32 },
  ],
  [
    'Chilean bar bill with a suggested tip, no decimals',
    `BAR LA PIEDRA
MESA: 0012
FECHA: 14/10/2026
HORA: 20:31:17
SCHOP 2 9.800
PAPAS FRITAS 1 6.500
Total $16.300
PROPINA SUGERIDA 10%: 1.630
Total c/Propina: 17.930`,
    // The suggested tip is not the tip paid.
    { merchantName: 'BAR LA PIEDRA', date: '2026-10-14', currency: 'CLP', total: 16300, tip: null },
  ],
  [
    'Indian restaurant with GST halves',
    `SPICE ROUTE KITCHEN
MG Road, Bengaluru 560001
GSTIN 29ABCDE1234F1Z5
Bill No: 1042  Date: 23-09-2026
Paneer Tikka 1 280.00 280.00
Naan 2 55.24 110.48
Sub Total 390.48
CGST 2.5% 9.76
SGST 2.5% 9.76
Net Amount 410.00`,
    { merchantName: 'SPICE ROUTE KITCHEN', date: '2026-09-23', currency: 'INR', subtotal: 390.48, tax: 19.52, total: 410, receiptNumber: '1042' },
  ],
  [
    'UK café with a card slip',
    `THE CORNER CAFE LTD
22 High Street
London N16 8JT
VAT No: 482 7715 26
Flat White £3.20
Toast £2.50
TOTAL £5.70
CARD £5.70
12 September 2026 08:31`,
    { merchantName: 'THE CORNER CAFE LTD', date: '2026-09-12', currency: 'GBP', total: 5.7 },
  ],
  [
    'Italian bar receipt',
    `BAR CENTRALE S.R.L.
Via Roma 10, 40121 Bologna
P.IVA 01234567890
CAFFE' 1,20
CORNETTO 1,50
TOTALE COMPLESSIVO 2,70
di cui IVA 0,49
CONTANTI 5,00
RESTO 2,30
21-03-2026 08:05 DOC.N. 0042`,
    { merchantName: 'BAR CENTRALE S.R.L.', date: '2026-03-21', currency: 'EUR', total: 2.7, tax: 0.49, paymentMethod: 'cash' },
  ],
  [
    'US supercenter with two tax rates and a coupon',
    `Save money. Live better.
SUPERMART
( 555 ) 123 - 4567
1200 MAIN ST
SPRINGFIELD IL 62701
ST# 5212 OP# 009 TE# 12 TR# 04471
GV WHOLE MILK 3.48 N
BANANAS 1.24 N
COUPON 0.50-
DETERGENT 11.97 X
SUBTOTAL 16.19
TAX 1 7.000 % 0.84
TAX 2 1.000 % 0.05
TOTAL 17.08
VISA TEND 17.08
CHANGE DUE 0.00
03/07/26 14:22:01`,
    {
      merchantName: 'SUPERMART',
      date: '2026-03-07',
      subtotal: 16.19,
      tax: 0.89,
      total: 17.08,
      // The coupon is an item deduction, already in the subtotal: not the receipt's discount.
      discount: null,
      items: [
        { description: 'GV WHOLE MILK', amount: 3.48 },
        { description: 'BANANAS', amount: 1.24 },
        { description: 'COUPON', amount: -0.5 },
        { description: 'DETERGENT', amount: 11.97 },
      ],
    },
  ],
  [
    'Australian supermarket, GST included',
    `FRESHWAY
Store 212 Redfern NSW 2016
ABN 51 824 753 556
17/05/2026 17:02
MILK 2L 3.10
BREAD 4.50
TOTAL $7.60
Total includes GST $0.00
EFTPOS $7.60`,
    { merchantName: 'FRESHWAY', date: '2026-05-17', currency: 'AUD', total: 7.6 },
  ],
  [
    'Swiss cooperative in francs',
    `Alpenmarkt Genossenschaft
Winterthur Töss
CHE-274.581.903 MWST
14.01.26 12:31
Vollmilch 1.80
Brot 3.20
Total CHF 5.00
Karte 5.00
MWST 2.6% 0.13`,
    { merchantName: 'Alpenmarkt Genossenschaft', date: '2026-01-14', currency: 'CHF', total: 5, tax: 0.13 },
  ],
  [
    'Portuguese hypermarket',
    `HIPERMERCADO SOL NASCENTE SA
NIF 509473218
Data: 16/11/2026 10:12
LEITE 0,89
PAO 1,20
TOTAL A PAGAR 2,09
Dinheiro 5,00
Troco 2,91
IVA 6% 0,12`,
    { merchantName: 'HIPERMERCADO SOL NASCENTE SA', date: '2026-11-16', currency: 'EUR', total: 2.09, tax: 0.12, paymentMethod: 'cash' },
  ],
  [
    'Dutch supermarket',
    `VERSMARKT B.V.
Kerkstraat 1, 1017 GA Amsterdam
MELK 1,19
KAAS 4,99
TOTAAL 6,18
PIN 6,18
BTW 9% 0,51
Datum: 05-05-2026 16:45`,
    { merchantName: 'VERSMARKT B.V.', date: '2026-05-05', currency: 'EUR', total: 6.18, tax: 0.51, paymentMethod: 'card' },
  ],
  [
    // As a recogniser trained on Chinese reads Japanese: simplified forms (计, 领收证) and spaces between characters.
    'Japanese receipt read with simplified forms and spaced characters',
    `スーパーみどり 新宿店
领 收 证
2026/5/20(水) 18:05
食パン 258
小 计 ¥1,240
合 计 ¥1,339
(内消费税等 ¥99)`,
    { date: '2026-05-20', currency: 'JPY', total: 1339, subtotal: 1240 },
  ],
  [
    // A card slip with a tip-suggestion table left blank: the charged amount is the total.
    'US card slip with a suggested gratuity table',
    `HILLTOP DINER
Card Type: Visa
Amount: $12.40
Gratuity: 18% 20% 22%
+Amount: 2.23 2.48 2.73
=Total: 14.63 14.88 15.13
I agree to pay this
total amount as set out in my
card issuer agreement.`,
    { total: 12.4 },
  ],
  [
    // "ZU" misread before "ZAHLEN": the word for the amount due still marks the total over the cash handed over.
    'German discounter with its total keyword half read',
    `ALDI SÜD
Milch 1,19 A
Brot 2,49 A
Kaffee 5,06 A
IU ZAHLEN EUR 8,74
Gegeben BAR 20,00
Rückgeld 11,26
MwSt 7% 0,57`,
    { currency: 'EUR', total: 8.74 },
  ],
  [
    'Japanese store with tax added on top (外税), full-width spaces and reduced-rate marks',
    `マルヤマ川崎駅前
電話:044-123-4567
2026年 6月20日(土) 15:27
レジ0012  責No.123
ﾊﾟﾝ ¥178※
牛乳 ¥238※
洗剤 ¥640
小　計 ¥1,056
外税8%対象額 ¥416
外税8% ¥33
外税10%対象額 ¥640
外税10% ¥64
合　計 ¥1,153
お預り ¥2,000
お釣り ¥847`,
    { merchantName: 'マルヤマ川崎駅前', date: '2026-06-20', currency: 'JPY', subtotal: 1056, tax: 97, total: 1153, items: [{ description: 'ﾊﾟﾝ', amount: 178 }, { description: '牛乳', amount: 238 }, { description: '洗剤', amount: 640 }] },
  ],
  [
    'Philippine store printing a bare P for the peso, month first',
    `SUNRISE GROCERY STORE
Brgy. San Isidro, Quezon City
VAT REG TIN 123-456-789-000
03/04/2026 10:15 AM
RICE 5KG P 310.00
COOKING OIL P 95.50
TOTAL P 405.50
CASH P 500.00
CHANGE P 94.50
Salamat po!`,
    { merchantName: 'SUNRISE GROCERY STORE', date: '2026-03-04', currency: 'PHP', total: 405.5 },
  ],
  [
    'Moldovan shop in lei, day first',
    `MAGAZIN ALIMENTAR S.R.L.
mun. Chisinau, str. Puskin 12
IDNO 1003600012345
BON FISCAL
Data 05.03.2026 Ora 14:22
PAINE 1 x 8.50 8.50
LAPTE 2 x 15.75 31.50
TOTAL LEI 40.00
NUMERAR 50.00
REST 10.00
Va multumim!`,
    { merchantName: 'MAGAZIN ALIMENTAR S.R.L.', date: '2026-03-05', currency: 'MDL', total: 40 },
  ],
];

describe('extractReceipt on receipts from many countries', () => {
  it.each(RECEIPTS)('%s', (_name, content, expected) => {
    const now = new Date('2026-11-23T12:00:00Z');
    const r = extractReceipt({ content, documents: [{ fields: {} }] }, { now });
    expect(r).toMatchObject(expected);
    // Read right, a receipt raises no issue and is valid for export. (Spec §5's 10000 limit is in
    // the receipt's own units, so a peso bill of 16,300 is "unusually large".)
    expect(validateReceipt(r, now).filter((issue) => issue.code !== 'largeTotal')).toEqual([]);
    expect(r.quality).toBeGreaterThanOrEqual(0.6);
    if ('currency' in expected && expected.currency === undefined) expect(r.currency).toBeUndefined();
  });
});

describe('what the receipt’s country settles, and what it leaves in doubt', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const read = (content: string, currencyCode?: string) => extractReceiptWithSources({ content, documents: [{ fields: {} }] }, { now, currencyCode });

  it('reads 05/03 as the 5th of March where the evidence names a day-first country, and as May the 3rd in a month-first one', () => {
    expect(read('CAFE LUMIERE SARL\nTVA FR12345678901\n05/03/2026 12:00\nTOTAL EUR 12,00\nCB 12,00').receipt.date).toBe('2026-03-05');
    expect(read('CORNER DELI\nAUSTIN, TX 78701\n05/03/2026 12:00\nTOTAL $12.00\nVISA $12.00').receipt.date).toBe('2026-05-03');
  });

  it('doubts the order of day and month in Canada, where both are written', () => {
    const { receipt, doubts } = read('MAPLE HARDWARE STORE\nOTTAWA ON K1P 5G4\n05/03/2026 12:00\nSUBTOTAL 10.00\nHST 13% 1.30\nTOTAL 11.30\nDEBIT 11.30');
    expect(receipt).toMatchObject({ currency: 'CAD', date: '2026-05-03', total: 11.3 });
    expect(doubts.map(renderIssue)).toEqual([ISSUE_TEXTS.dateEitherWay]);
  });

  it('raises no doubt on a receipt whose every key field has evidence', () => {
    expect(read('MAPLE HARDWARE STORE\nOTTAWA ON K1P 5G4\n2026-03-05 12:00\nSUBTOTAL 10.00\nHST 13% 1.30\nTOTAL 11.30\nDEBIT 11.30').doubts).toEqual([]);
  });

  it('says when the currency is only the user’s choice, and when the total stands on one line alone', () => {
    const { receipt, doubts } = read('HARBOUR TRADING CO.\n12.03.2026 10:00\nWIDGET 9.99\nTOTAL 9.99', 'NOK');
    expect(receipt.currency).toBe('NOK');
    expect(doubts.map(renderIssue)).toEqual([ISSUE_TEXTS.totalUnconfirmed, ISSUE_TEXTS.currencyAssumed]);
  });
});
