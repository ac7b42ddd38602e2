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
    [{}, 'Invoice No: 2018020851320073885', '2018020851320073885'],
    [{}, 'Doc No CS800012504 Date: 02/01/2018', 'CS800012504'],
    [{}, 'RECEIPT # 12', undefined],
    [{}, 'Bon-Nr.:933 Markt:0449', undefined],
    [{}, '13.01.2020 17:25 Bon-Nr.:9331', '9331'],
    [{}, 'Beleg-Nr. 2992', '2992'],
    [{}, 'N° ticket 0025243/001', '0025243/001'],
    [{}, 'Factura: F-12/0034', 'F-12/0034'],
    [{}, 'Check #: 39580', '39580'],
    [{}, 'Receipt: ABCD', undefined],
  ])('receipt number %j %j → %s', (fields, text, value) => {
    expect(findReceiptNumber(fields, text)).toBe(value);
  });

  it.each([
    [{ TIN: { value: '12-3456789' } }, '', '12-3456789'],
    [{}, 'GST REG : 001125220352', '001125220352'],
    [{}, 'GST ID: 000381399040', '000381399040'],
    [{}, 'TIN 123', undefined],
    [{}, 'GSTIN: 29ABCDE1234F1Z5', '29ABCDE1234F1Z5'],
    [{}, 'UID Nr.: DE812706034', 'DE812706034'],
    [{}, 'SIRET : 823 396 254 00018', '82339625400018'],
    [{}, 'Steuernummer: 046/220/00003', '046/220/00003'],
    [{}, 'CNPJ 47.508.411/2407-00', '47.508.411/2407-00'],
  ])('TIN %j %j → %s', (fields, text, value) => {
    expect(findTin(fields, text)).toBe(value);
  });

  it.each([
    ['VISA ****1234', 'visa'],
    ['Pay By: CASH', 'cash'],
    ['MasterCard', 'mastercard'],
    ['CB 9,50', 'card'],
    ['PIN 6,18', 'card'],
    ['CB#: 87870\nCASH 10.40', 'cash'],
    ['Tarj. Crédito 4,56', 'card'],
    ['Kartenzahlung girocard', 'card'],
    ['Geg. BAR EUR 10,00', 'cash'],
    ['Espèces 50,00', 'cash'],
    ['nothing', undefined],
  ])('payment %j → %s', (text, method) => {
    expect(findPaymentMethod({}, text)).toBe(method);
  });
});
