import { describe, expect, it } from 'vitest';
import { decideCurrency, detectCurrency } from './currency.rule.js';

describe('detectCurrency', () => {
  it.each([
    ['eur', 'Total 5.00 $', undefined, 'EUR'],
    ['XYZ', 'Total €5.00', undefined, 'EUR'],
    [undefined, 'TOTAL RM7.00', undefined, 'MYR'],
    [undefined, 'Total £3.20', undefined, 'GBP'],
    [undefined, 'Total ¥500', undefined, 'JPY'],
    [undefined, 'Total ₱250.00', undefined, 'PHP'],
    [undefined, 'Total ₹99.00', undefined, 'INR'],
    [undefined, 'Total $8.70', undefined, 'USD'],
    [undefined, 'Total $8.70', 'SGD', 'SGD'],
    [undefined, 'Total SGD 12.00', undefined, 'SGD'],
    [undefined, 'SURIA JAYA CO. (M) BHD 56100 KUALA LUMPUR Total 5.90', undefined, 'MYR'],
    [undefined, 'MERANTI BOOK CO. (M) SDN BHD Slip No.: $081937465 Total $4.00', undefined, 'MYR'],
    [undefined, 'KIM SENG HARDWARE ENTERPRISE SON BHD TOTAL 16.00', undefined, 'MYR'],
    [undefined, 'MR KLY TRADING BERHAD Total 5.90', undefined, 'MYR'],
    [undefined, 'Total 5.90', 'CHF', 'CHF'],
    [undefined, '£7 000004726153 SURIA KUALA LUMPUR Total 5.90', undefined, 'MYR'],
    [undefined, 'Total 5.90', undefined, 'USD'],
    [undefined, 'Total 5.90', 'NOPE', 'USD'],
  ])('field %s, text %j, hint %s → %s', (field, text, hint, code) => {
    expect(detectCurrency(field, text, hint).code).toBe(code);
  });
});

describe('decideCurrency: the user’s selection against the receipt’s evidence', () => {
  it.each<[string, string | undefined, string]>([
    // No symbol printed: the country's words and tax names decide.
    ['SUBTOTAL 21.40\nGST/HST 2.78\nTORONTO ON M5V 2T6\nTOTAL 24.18', undefined, 'CAD'],
    ['Summe 12,00\nMwSt 19% 1,92\nVielen Dank', undefined, 'EUR'],
    ['TOTAL TTC 45,00\ndont TVA 20% 7,50\nMerci', undefined, 'EUR'],
    ['小計 1,240\n消費税 99\n合計 1,339', undefined, 'JPY'],
    ['Total $84.500\nPROPINA SUGERIDA 10%: 8.450', undefined, 'CLP'],
    ['CGST 2.5% 9.76\nSGST 2.5% 9.76\nTotal 410.00', undefined, 'INR'],
    ['VALOR TOTAL R$ 23,45\nCNPJ 58.214.907/0001-36', undefined, 'BRL'],
    ['NOTA FISCAL DE CONSUMIDOR\nVALOR TOTAL Rs 23,45\nTrib aprox R$: 2,10', undefined, 'BRL'],
    ['Total Rs. 200.00', undefined, 'INR'],
    // A code in brackets beside the total's amount.
    ['Product Quantity Price\nTotal (AED) 96.00', undefined, 'AED'],
    // The euro as a word beside an amount or on the total's line; a shop named for it with dollar prices is not in euros.
    ['Tot Euro 122 10\nCafe 3.20', undefined, 'EUR'],
    ['TOTAL... .. EUROS\nPAN 1,20', undefined, 'EUR'],
    ['EURO DELI\nSandwich $8.50\nTotal $8.50', undefined, 'USD'],
    // Singapore's GST registration number ends in a check letter, with dollars printed.
    ['GST Reg No:20-0301619-D\nSUBTOTAL $100.30\nTOTAL $118.95', undefined, 'SGD'],
    ['GST Reg No: 201534827K\nTOTAL $38.60', undefined, 'SGD'],
    // A phone number in a Canadian area code; a US one stays US.
    ['SAFFRON HOUSE\nTel: (905) 731-4462\nTOTAL: $186.40', undefined, 'CAD'],
    ['DINER\nTel: (212) 731-4462\nTOTAL: $186.40', undefined, 'USD'],
    // A code written against its sign; a GSTIN; an NFC-e's access key.
    ['Total for 3 items: $18.40\nPURCHASE AUD$ 18.40', undefined, 'AUD'],
    ['GST NO.-27ABCDE1234F1Z5\nTotal 350.00', undefined, 'INR'],
    ['TOTAL 42,10 ¥ 0\nConsulte pela Chave de Acesso', undefined, 'BRL'],
    // A chain that trades in one country; one trading in several places nothing.
    ['Loblaws\n05/11/25\nTOTAL $14.25', undefined, 'CAD'],
    ['Walmart\nTOTAL $12.60', undefined, 'USD'],
    ['Big W\nTOTAL $12.60', undefined, 'AUD'],
    // Singapore's GST number with "No" read as "N0", and a company's UEN; a Malaysian company number is neither.
    ['GST REG N0:20-1234567-K\nTOTAL $12.60', undefined, 'SGD'],
    ['HAWKER HOUSE PTE\nUEN 201512345K\nTOTAL $12.60', undefined, 'SGD'],
    ['KEDAI MAJU (1234567-X)\nTOTAL $12.60', undefined, 'USD'],
    ['Bunnings\nTOTAL $12.60', undefined, 'USD'],
    // A yen sign among prices with cents, and no Japanese anywhere, is a misread mark.
    ['GOUDA 2,40\nBRIE 3,15 ¥\nTOTAL 5,55\nEUR', undefined, 'EUR'],
    // Spanish words alone do not make a euro receipt; a foreign-looking VAT id of the wrong length neither.
    ['MESA 0012\nTotal $ 45.600\nGRACIAS POR SU VISITA', undefined, 'CLP'],
    ['TC# 8812 FR 123456789012\nTOTAL 48.10', undefined, 'USD'],
    ['VAT No 482 7715 26\nLEEDS LS2 7HY\nTOTAL 4.76', undefined, 'GBP'],
    ['Total 12.50\nSPRINGFIELD, IL 62701', undefined, 'USD'],
    ['VATable Sales 223.21\nVAT 26.79\nTOTAL 250.00\nBIR Permit No. 0412-116-00123\nSalamat po!', undefined, 'PHP'],
    // The selection is the prior: one stray symbol cannot override it …
    ['TOTAL 4.58\n¥', 'GBP', 'GBP'],
    ['TOTAL 24.18\n€ 3', 'CAD', 'CAD'],
    // … an ISO code beside an amount or a symbol backed by the country's words can.
    ['SUMME EUR 16,45', 'USD', 'EUR'],
    ['Summe € 16,45\nMwSt 19% 2,63', 'USD', 'EUR'],
    // Nothing printed at all: the selection, else USD.
    ['TOTAL 5.00', 'AUD', 'AUD'],
    ['TOTAL 5.00', undefined, 'USD'],
    // A dollar sign supports the selection when it is a dollar currency.
    ['TOTAL $5.00', 'NZD', 'NZD'],
    // Switzerland writes MwSt too; its own cues win.
    ['Bäckerei Edelweiss Bern\nMWST 2,6%\nTotal CHF 48.35', undefined, 'CHF'],
  ])('%j with selection %s → %s', (text, hint, code) => {
    expect(decideCurrency(text, hint)).toBe(code);
  });
});
