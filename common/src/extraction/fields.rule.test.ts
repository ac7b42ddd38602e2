import { describe, expect, it } from 'vitest';
import { findPaymentMethod, findReceiptNumber, findTin, taxFromFields } from './fields.rule.js';

describe('fields', () => {
  it('takes tax from the first present field in the spec’s order', () => {
    expect(taxFromFields({ VAT: { value: 2 }, Tax: { value: 1.5 } })).toBe(1.5);
    expect(taxFromFields({ SalesTax: { content: '0.80' } })).toBe(0.8);
    expect(taxFromFields({ Tax: { value: -3 }, GST: { value: 0.59 } })).toBe(0.59);
    expect(taxFromFields({})).toBeNull();
  });

  it.each([
    [{ InvoiceId: { value: 'INV-77' } }, '', 'INV-77'],
    [{}, 'Invoice No: 2018031462170048213', '2018031462170048213'],
    [{}, 'Doc No CS800047316 Date: 05/01/2018', 'CS800047316'],
    [{}, 'RECEIPT # 12', undefined],
    [{}, 'Bon-Nr.:417 Markt:0318', undefined],
    [{}, '14.02.2020 18:05 Bon-Nr.:4172', '4172'],
    [{}, 'Beleg-Nr. 5816', '5816'],
    [{}, 'N° ticket 0041876/001', '0041876/001'],
    [{}, 'Factura: F-12/0034', 'F-12/0034'],
    [{}, 'Check #: 52714', '52714'],
    [{}, 'Receipt: ABCD', undefined],
  ])('receipt number %j %j → %s', (fields, text, value) => {
    expect(findReceiptNumber(fields, text)).toBe(value);
  });

  it.each([
    [{ TIN: { value: '12-3456789' } }, '', '12-3456789'],
    [{}, 'GST REG : 002417368064', '002417368064'],
    [{}, 'GST ID: 000529417063', '000529417063'],
    [{}, 'TIN 123', undefined],
    [{}, 'GSTIN: 29ABCDE1234F1Z5', '29ABCDE1234F1Z5'],
    [{}, 'UID Nr.: DE274019385', 'DE274019385'],
    [{}, 'SIRET : 512 804 367 00025', '51280436700025'],
    [{}, 'Steuernummer: 217/538/40172', '217/538/40172'],
    [{}, 'CNPJ 58.214.907/0001-36', '58.214.907/0001-36'],
  ])('TIN %j %j → %s', (fields, text, value) => {
    expect(findTin(fields, text)).toBe(value);
  });

  it.each([
    ['VISA ****1234', 'visa'],
    ['Pay By: CASH', 'cash'],
    ['MasterCard', 'mastercard'],
    ['CB 9,50', 'card'],
    ['PIN 6,18', 'card'],
    ['CB#: 64213\nCASH 12.80', 'cash'],
    ['Tarj. Crédito 4,56', 'card'],
    ['Kartenzahlung girocard', 'card'],
    ['Geg. BAR EUR 10,00', 'cash'],
    ['Espèces 50,00', 'cash'],
    ['nothing', undefined],
  ])('payment %j → %s', (text, method) => {
    expect(findPaymentMethod({}, text)).toBe(method);
  });
});
