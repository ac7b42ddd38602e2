import { describe, expect, it } from 'vitest';
import { cleanMerchantLine, findMerchant, isNameLike } from './merchant.rule.js';

describe('merchant', () => {
  it('takes the service field at confidence 0.8 or more', () => {
    expect(findMerchant({ value: 'Blue Bottle', confidence: 0.92 }, ['Something else'])).toEqual({ name: 'Blue Bottle', confidence: 0.92 });
    expect(findMerchant({ value: 'Blue Bottle', confidence: 0.5 }, ['ACME STORE'])?.name).toBe('ACME STORE');
  });

  it.each([
    [['0¥', 'AEON CO. (M) BHD (126926-H)', '3RD FLR, AEON TAMAN'], 'AEON CO. (M) BHD'],
    [['Ce EC.', '2 IQ ol 7 ;', 'SYARIKAT PERNIAGAAN GIN KEE', '(81109-A)'], 'SYARIKAT PERNIAGAAN GIN KEE'],
    [['| HON HWA HARDWARE TRADING', 'Company Reg. Na. : 001055194X'], 'HON HWA HARDWARE TRADING'],
    [['RECEIPT', 'Joe Coffee', '12 Main St'], 'Joe Coffee'],
    [['123456', '!!', '##'], null],
    [['Sine, :', 'POPULAR BOOK', 'CO. (M) SDN BHD', '(Co. No. 113825-K)'], 'POPULAR BOOK CO. (M) SDN BHD'],
    [['AIK HUAT HARDWARE', 'ENTERPRISE (SETIA', 'ALAM) SIN BHD', '822737-X'], 'AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SIN BHD'],
    [['I ——', 'OLD ASIA', 'OWN BY: CHEF LEE SDN BHD', 'CO. NO. (458592-T)'], 'CHEF LEE SDN BHD'],
    [['3180305y |', 'MR. D.I.Y. (M) SDN BHD', '(CO.REG :860671-D)', 'KAWASAN PERINDUSTRIAN BALAKONG,'], 'MR. D.I.Y. (M) SDN BHD'],
    [['99 SPEED MART S/B {519537-%)', 'LOT P.T. 2811'], '99 SPEED MART S/B'],
    [['Dion Realties Sdn Bhd (Co. No:20154-T)'], 'Dion Realties Sdn Bhd'],
  ])('%j → %s', (lines, name) => {
    expect(findMerchant(undefined, lines)?.name ?? null).toBe(name);
  });

  it('applies the spec’s shape rules', () => {
    expect(isNameLike('ab')).toBe(false);
    expect(isNameLike('x'.repeat(51))).toBe(false);
    expect(isNameLike('7-Eleven')).toBe(false);
    expect(isNameLike('Official Receipt')).toBe(false);
    expect(isNameLike('SALES INVOICE')).toBe(false);
    expect(isNameLike("DOMINO'S PIZZA")).toBe(true);
  });

  it('drops registration numbers', () => {
    expect(cleanMerchantLine('GARDENIA BAKERIES (KL) SDN BHD (139386 X)')).toBe('GARDENIA BAKERIES (KL) SDN BHD');
  });
});
