import { describe, expect, it } from 'vitest';
import { wholeAmountsIn } from './money.rule.js';
import { findTotals, findTotalsWithSources, joinSplitLetters, lineKind, taxFromBreakupRow, taxFromRateTable, type TaxRateRow } from './totals.rule.js';

const lines = (text: string) => text.trim().split('\n');

describe('findTotals', () => {
  it('reads a GST receipt with a summary table', () => {
    const t = findTotals(
      lines(`
TOTAL QTY: 4
Total Sales (Excluding GST) 42.40
Discount : 0.00
Total GST 2.54
Rounding 0.00
Total Sales (Inclusive of GST) 44.94
CASH : 44.94
Change : 0.00
GST SUMMARY
Total : 42.40 2.54`),
    );
    expect(t).toMatchObject({ total: 44.94, tax: 2.54, discount: 0 });
  });

  it('prefers the adjusted total and agrees with cash minus change', () => {
    const t = findTotals(lines(`Sub-total 6.90\nTotal Sales Incl GST 6:80\nTotal After Adj Incl GST 6.90\nCASH 10.00\nItem Count 1 Change Amt 3.10\nTotal 6.51 0.39`));
    expect(t.total).toBe(6.9);
    expect(t.subtotal).toBe(6.9);
  });

  it('reads "total" however OCR misspells it, in every kind of total line', () => {
    const t = findTotals(lines(`SubTatal: 212.00\nRounding Adj : 0.00\nTatal Inclusive GST: 192.00\nMASTER 212.00`));
    expect(t).toMatchObject({ total: 192, subtotal: null });
    expect(findTotals(lines(`T0TAL 12.50\nCASH 20.00`)).total).toBe(12.5);
    expect(findTotals(lines(`Tota1 Qty 3\nTOTAL 9.90`)).total).toBe(9.9);
  });

  it('recovers from a garbled total through payment and change', () => {
    const t = findTotals(lines(`Sub-Total : 64.00\nCoupon Discount : 19.20\nGrand Total : 44.890\nPayment : 50.00\nChange Due : 05.20`));
    expect(t).toMatchObject({ total: 44.8, subtotal: 64, discount: 19.2 });
  });

  it('takes an amount printed on the line after its label', () => {
    expect(findTotals(lines(`TOTAL\nRM 14.60\nCASH\n20.00\nCHANGE\n5.40`)).total).toBe(14.6);
  });

  it('reads totals with thousands separators and a tip', () => {
    const t = findTotals(lines(`Subtotal 1,200.00\nService Tax 72.00\nTip 50.00\nGrand Total 1,322.00`));
    expect(t).toEqual({ total: 1322, subtotal: 1200, tax: 72, tip: 50, discount: null });
  });

  it('takes the rounded total printed after the rounding line', () => {
    const t = findTotals(lines(`Total (Excluding GST): 52.00\nTotal (Inclusive of GST): 55.12\nRounding Adj: -0.02\nTOTAL: 55.10\nCASH : 55.10`));
    expect(t.total).toBe(55.1);
  });

  it('adds a rounding adjustment printed under the total, the rounded total misread or not printed', () => {
    expect(findTotals(lines(`Total (Incl GST) RM14.18\nRounding RM0.02\nCash RM20.20`)).total).toBe(14.2);
    expect(findTotals(lines(`Total RM Incl. of GST 18.34\nRounding Adj 0.01\nTotal RM 18.55\nCash 50.00\nCHANGE 31.65`)).total).toBe(18.35);
  });

  it('reads change as handed back, whatever sign OCR put before it', () => {
    expect(findTotals(lines(`Cash Tendered: 40.00\nCHANGE : J -9.55`)).total).toBe(30.45);
  });

  it('keeps a printed total over what the cash and change imply', () => {
    const t = findTotals(lines(`SUBTOTAL 16.43\nTOTAL (GST INCL) 16.43\nCASH 20.00\nROUNDING ADJUSTMENTS 0.02\nCHANGE DUE 3.55`));
    expect(t.total).toBe(16.43);
  });

  it('uses the cash handed over, not the cash line, for change', () => {
    const t = findTotals(lines(`TOTAL 16.00\nCash 76.00\nCash Received 106,00\nChange 30.00`));
    expect(t.total).toBe(76);
  });

  it('takes a rounding line that prints the rounded total', () => {
    expect(findTotals(lines(`TOTAL SALES (INCLUSIVE GST) RM 58.39\nROUNDING ADJUSTMENT RM .01\nROUNDING RM\n58.40\nCASH RM 100.00`)).total).toBe(58.4);
  });

  it('falls back to the subtotal when no total is legible', () => {
    expect(findTotals(lines(`2 SubTotal 32.00\nNet Total 32: J`)).total).toBe(32);
  });

  it('finds nothing in text without amounts', () => {
    expect(findTotals(['hello', 'world']).total).toBeNull();
  });
});

describe('totals in every language', () => {
  it.each<[string, string, Partial<ReturnType<typeof findTotals>>]>([
    ['de', 'SUMME EUR 16,45\nGeg. BAR EUR 20,45\nRückgeld BAR EUR 4,00', { total: 16.45 }],
    ['de', 'Zwischensumme 10,00\nMwSt 19% 1,90\nZu zahlen 11,90\nEC-Karte 11,90', { total: 11.9, subtotal: 10, tax: 1.9 }],
    ['fr', 'TOTAL TTC 45,00\ndont TVA 20% 7,50\nEspèces 50,00\nRendu 5,00', { total: 45, tax: 7.5 }],
    ['es', 'Total factura: 37,85\nIMPORTE A ABONAR 37,85\nTarj. Crédito 37,85\nCambio 0,00', { total: 37.85 }],
    ['es', 'SUBTOTAL 100,00\nIVA 21% 21,00\nPROPINA 10,00\nTOTAL 131,00', { total: 131, subtotal: 100, tax: 21, tip: 10 }],
    ['pt', 'TOTAL A PAGAR 27,35\nDinheiro 30,00\nTroco 2,65', { total: 27.35 }],
    ['nl', 'Subtotaal 11,47\nBTW 9% 1,03\nTOTAAL 12,50\nPIN 12,50', { total: 12.5, subtotal: 11.47, tax: 1.03 }],
    ['it', 'TOTALE COMPLESSIVO 18,40\ndi cui IVA 3,32\nCONTANTI 20,00\nRESTO 1,60', { total: 18.4, tax: 3.32 }],
    ['en (India)', 'Sub Total 390.48\nCGST 2.5% 9.76\nSGST 2.5% 9.76\nNet Amount 410.00', { total: 410, subtotal: 390.48, tax: 19.52 }],
    // The tip written on the slip is part of what was paid: subtotal + tax + tip agree with the card line.
    ['en', 'SUBTOTAL 36.20\nSALES TAX 3.17\nTOTAL 39.37\nTIP 8.00\nVISA 47.37', { total: 47.37, subtotal: 36.2, tax: 3.17, tip: 8 }],
  ])('%s: %j', (_language, text, expected) => {
    expect(findTotals(lines(text))).toMatchObject(expected);
  });

  it('reads yen and pesos without decimals', () => {
    const yen = findTotals(lines('小計 ¥1,240\n消費税 ¥99\n合計 ¥1,339\nお預り ¥2,000\nお釣り ¥661'), wholeAmountsIn);
    expect(yen).toMatchObject({ total: 1339, subtotal: 1240, tax: 99 });
    expect(findTotals(lines('Total $84.500\nEFECTIVO $90.000\nVUELTO $5.500'), wholeAmountsIn).total).toBe(84500);
  });

  it('does not take a suggested tip, or the total with it, for the tip or the total', () => {
    expect(findTotals(lines('Total $84.500\nPROPINA SUGERIDA 10%: 8.450\nTotal c/Propina: 92.950'), wholeAmountsIn)).toMatchObject({ total: 84500, tip: null });
    expect(findTotals(lines('TOTAL 50.00\nSuggested gratuity:\n18% 9.00\n20% 10.00'))).toMatchObject({ total: 50, tip: null });
  });

  it('reads "Bar" as cash only where it labels a payment', () => {
    expect(lineKind('Geg. BAR EUR 20,45')).toBe('cash');
    expect(lineKind('Bar 50,00')).toBe('cash');
    expect(lineKind('Snickers Bar 1,29')).toBeNull();
  });

  it('never takes the cash handed over for the total', () => {
    expect(findTotals(lines('CASH 20.00\nCHANGE 7.50')).total).toBe(12.5);
    expect(findTotals(lines('Bar 50,00\nSumme 42,10\nRückgeld 7,90')).total).toBe(42.1);
  });

  it('adds up split payments (voucher + card) instead of taking one of them', () => {
    expect(findTotals(lines('SUMME EUR 46,83\nGeg. Gutschein EUR 25,00\nGeg. EC-Cash EUR 21,83\nBetrag EUR 25,00\nBetrag EUR 21,83')).total).toBe(46.83);
  });

  it('does not read a sentence as a label', () => {
    expect(findTotals(lines('$1.00 reward cash earned! See your balance\nTotal $23.60\nYour payment method has a temporary hold for $23.85')).total).toBe(23.6);
  });

  it('reads a total whose T was lost at the line\'s start', () => {
    expect(findTotals(lines('BURGER 12.40\notal $ 52.90\nCARD 52.90')).total).toBe(52.9);
  });

  it('sums per-rate tax lines and prefers a stated total tax', () => {
    expect(findTotals(lines('MwSt 19% 1,20\nMwSt 7% 0,40\nSumme 20,00')).tax).toBe(1.6);
    expect(findTotals(lines('VAT 20% 1,00\nVAT 5% 0,10\nTotal VAT 1,10\nTotal 12,00')).tax).toBe(1.1);
  });
});

describe('a label glued to the digits before it', () => {
  it('reads the total PaddleOCR printed without its space ("7BALANCE DUE")', () => {
    expect(findTotals(lines('CARROTS 2LB 2.19 *\nTOTAL TAX 0.00\n7BALANCE DUE 24.80')).total).toBe(24.8);
  });
});

describe('cents printed alone and deductions among the items', () => {
  it.each<[string, string, Partial<Record<'total' | 'tax' | 'discount', number | null>>]>([
    ['a tax under a dollar printed as cents alone (us)', 'SUBTOTAL 2.00\nSALES TAX .26\nTOTAL 2.26', { total: 2.26, tax: 0.26 }],
    ['no tax charged, printed as .00', '## SUBTOTAL 6.40\n## TAX .00\n## TOTAL 6.40', { total: 6.4, tax: 0 }],
    ['cents alone on a total line are a total whose dollars OCR lost: the payment says it', 'Net Total xq .75\nCash 41.75', { total: 41.75 }],
    ['an item\'s savings line is in the items\' sum, not a discount on it', 'RICE 3.29 F\nWAS 3.89 SAVINGS 0.60\nBUTTER 4.15 F\nWAS 5.15 SAVINGS 1.00\nSUBTOTAL 7.44\nTAX .00\nTOTAL 7.44', { total: 7.44, tax: 0, discount: null }],
    ['a discount line among the sums stays the receipt\'s', 'Total Sales (Excluding GST) 20.00\nDiscount : 2.00\nTotal GST 1.08\nTotal Sales (Inclusive of GST) 19.08', { discount: 2 }],
  ])('%s', (_case, text, expected) => {
    expect(findTotals(lines(text))).toMatchObject(expected);
  });
});

describe('a subtotal the tax makes into the total', () => {
  it.each<[string, string, number | null]>([
    ['its label garbled past reading, above the tax', 'FISH TACO 7.50\nSOUP 4.25\nSvb/7tI 11.75\nTax 0.94\nTOTAL 12.69', 11.75],
    ['labelled with a word that is not a subtotal word', 'PAD THAI 9.00\nAmount : 9.00\nTAX(8%) : 0.72\nTOTAL: 9.72', 9],
    ['under the tax line, as a total before tax', 'CREPE 6.00\nTVA 10,00% 0.60\nMontant H.T. 6.00\nTOTAL 6.60', 6],
    ['not a line whose amount the tax does not make into the total', 'BAGEL 3.10\nMUFFIN 2.40\nTax 0.44\nTOTAL 5.94', null],
    ['not a tip above the tax', 'MEAL 20.00\nTIP 5.00\nTax 1.60\nTOTAL 26.60', null],
    ['the abbreviation tills print ("SUBTTL")', 'NOODLES 8.90\nRICE 10.50\nSUBTTL 19.40\nGST 1.36\nTOTAL 20.76', 19.4],
    ['of several subtotals, the one the tax makes into the total', 'BURGER 6.00\nKitchen Sub-Total 6.00\nCoupon -0.50\nPromo Sub-Total -0.50\nSUB TOTAL 5.50\nSales Tax 0.44\nTOTAL: 5.94', 5.5],
  ])('%s', (_case, text, subtotal) => {
    expect(findTotals(lines(text)).subtotal).toBe(subtotal);
  });
});

describe('a rate table that makes the total', () => {
  it('states the tax even above the rates of a currency that was only assumed', () => {
    // Dollars assumed for a receipt that prints no currency: a 17.5 % rate is no US sales tax, but the table adds up.
    const text = 'CURRY 80.00\nAmount Due 94.00\nRate Net VAT Gross\nS VAT @ 17.5 80.00 14.00 94.00';
    expect(findTotals(lines(text), undefined, 'USD').tax).toBe(14);
  });
  it('leaves a table that does not make the total to the usual rates', () => {
    const text = 'CURRY 80.00\nAmount Due 96.00\nRate Net VAT Gross\nS VAT @ 17.5 80.00 14.00 94.00';
    expect(findTotals(lines(text), undefined, 'USD').tax).toBeNull();
  });
});

describe('tax from a rate line the sums confirm', () => {
  it.each<[string, string, number | null]>([
    ['the rate\'s share of a VAT-inclusive total, the tax word garbled (fr)', 'TOTAL EUR 30.00\ndont TVQ (20%) EUR 5.00', 5],
    ['the amount the subtotal lacks, on per-class lines (us)', 'SUBTOTAL 40.00\nB-Taxable @6.250% 0.50\nA-Taxable @0.00% 0.00\nTOTAL 40.50', 0.5],
    ['the rate on the subtotal', 'SUBTOTAL 20.00\nH 10% 2.00\nTOTAL 22.00', 2],
    ['a service charge is no tax', 'SUBTOTAL 20.00\nService charge 10% 2.00\nTOTAL 22.00', null],
    ['a rate line the sums do not confirm is not the tax', 'TOTAL 30.00\nMember 10% 4.00', null],
    ['a discount stays a discount', 'SUBTOTAL 20.00\nDiscount 10% 2.00\nTOTAL 18.00', null],
    ['the unlabelled line under the subtotal making up the total (label garbled)', 'SUBTOTAL 120.00\nrx 6.00\nTOTAL 126.00', 6],
    ['an unlabelled line under the subtotal that does not make up the total', 'SUBTOTAL 120.00\nMember 1234 6.00\nTOTAL 127.00', null],
  ])('%s', (_case, text, tax) => {
    expect(findTotals(lines(text)).tax).toBe(tax);
  });
});

describe('taxFromBreakupRow: the taxable amount and its taxes adding up to the total', () => {
  it.each<[string, string, number, string | undefined, number | null]>([
    ['CGST and SGST on a GST breakup (in)', 'Taxable CGST SGST\nTotal 410.00 20.50 20.50', 451, 'INR', 41],
    ['state and county tax under their header (us)', 'Sales tax: taxable, state, county\n40.00 1.60 1.10', 42.7, 'USD', 2.7],
    ['a zero cess column adds nothing', 'Total 100.00 2.50 2.50 0.00', 105, 'INR', 5],
    ['amounts that do not add up to the total', 'Total 410.00 20.50 20.50', 460, 'INR', null],
    ['an item row far from any tax or total word', 'Header\nA\nB\nC\nD\nE\nF\nG\nH\nI\n2.00 3.00 5.00', 10, 'USD', null],
    ['taxes at a rate no country charges', 'Total 50.00 20.00 30.00', 100, 'USD', null],
  ])('%s', (_case, text, total, currency, tax) => {
    expect(taxFromBreakupRow(lines(text), total, undefined, currency)?.amount ?? null).toBe(tax);
  });

  it('decides the tax only where no tax line or rate table did', () => {
    expect(findTotals(lines('Total Amount Paid 451.00\nTaxable CGST SGST\nTotal 410.00 20.50 20.50'), undefined, 'INR').tax).toBe(41);
    expect(findTotals(lines('GST 10.00\nTotal Amount Paid 451.00\nTaxable CGST SGST\nTotal 410.00 20.50 20.50'), undefined, 'INR').tax).toBe(10);
  });
});

describe('taxFromRateTable', () => {
  it.each<[string, { tax: number; gross: number } | null]>([
    // Netto / Steuer / Brutto with a total row.
    ['Steuer % Netto Steuer Brutto\nA= 19,0% 1,68 0,32 2,00\nB= 7,0% 13,27 0,93 14,20\nGesamtbetrag 14,95 1,25 16,20', { tax: 1.25, gross: 16.2 }],
    // Rate rows only, columns in another order (gross, net, tax).
    ['TVA 20% 12,00 10,00 2,00\nTVA 5,5% 10,55 10,00 0,55', { tax: 2.55, gross: 22.55 }],
    // Three amounts that add up but neither print a rate nor sit under a tax header: items.
    ['BARR CEREAL 1,65 1,65 3,30', null],
    // A rate column without its % sign in front; a zero-rated row adds nothing.
    ['VAT Analysis\nRate Code Excl VAT Inc\n20.00 A 2.50 0.50 3.00\n0.00 B 3.20 0.00 3.20', { tax: 0.5, gross: 3 }],
    // A rate and two amounts: the gross and the rate's share of it, or the net and the rate on it.
    ['VAT RATE SALES VAT\nA 0% 2.15 0.00\nB 20 % 4.80 0.80', { tax: 0.8, gross: 4.8 }],
    ['GST 10% 20.00 2.00', { tax: 2, gross: 22 }],
    // Net + tax missing the gross by the row's own rounding cent.
    ['MWST Netto MWST-BETRAG BRUTTO\nD 19,00% 4,21 0,80 5,02', { tax: 0.8, gross: 5.02 }],
    // A rate column without its % and no rate row adding up: each row's rate, gross and tax.
    ['SATZ MWST% BETRAG MWST\n0 2.60 12.40 0.31\n1 8.10 32.43 2.43', { tax: 2.74, gross: 44.83 }],
    // A printed rate and a misread net: the gross and the tax the rate ties together, in either order.
    ['Typ Netto MwSt Brutto\n19 % 5.0 3,18 19,90', { tax: 3.18, gross: 19.9 }],
    ['MWST Netto MWST Brutto\n19 % 16,22 3,81 3,18 19,90', { tax: 3.18, gross: 19.9 }],
    // Two amounts with a rate that is no share of either: not a tax row.
    ['Rabatt 10% 5.00 1.00', null],
  ])('%j', (text, table) => {
    const found = taxFromRateTable(lines(text));
    expect(found === null ? null : { tax: found.tax, gross: found.gross }).toEqual(table);
  });
});

describe('totals as tills print them and OCR reads them', () => {
  it.each<[string, number | null, number | null]>([
    // A time on the total's line is no second amount.
    ['Subtotal 26.80\nTax 2.35\n07:12PM Total 29.15', 29.15, 2.35],
    // A tip guide, on one line or as a table under its header, was suggested, not paid.
    ['Subtotal 26.80\nTax 2.35\nTotal 29.15\nGratuity Guide 15% $4.37\n18% $5.25', 29.15, 2.35],
    ['SUBTOTAL 76.40\nTAX 4.97\nTOTAL 81.37\nPercentage Tip\n18% 13.75\n20% 15.28', 81.37, 4.97],
    // Letters OCR split off the label.
    ['FUEL TOTAL 48.27\nTota l = $ 58.27\nCREDI T $ 58.27', 58.27, null],
    // O read as C or D; the till's "TOTL".
    ['TCTAL $87.46\n$87.46', 87.46, null],
    ['5 TDTAL $41.50\nGST $0.00\nTOTAL $41.50\nCASH $41.00\nCHANGE $0.50', 41.5, 0],
    ['TXTL 2.17\nTOTL 27.64\nCASH 40.00\nCHANGE 12.36', 27.64, null],
    // "Net Total" that the tax under it makes into the total is the subtotal.
    ['Net Total: $14.35\nTax: $1.27\nTOTAL: $15.62\nCASH $15.62', 15.62, 1.27],
    // Where it is what is paid (nothing adds to it), "Net Total" stays the total.
    ['Net Total RM 25.40\nCash 30.00\nChange 4.60', 25.4, null],
  ])('%j', (text, total, tax) => {
    const t = findTotals(lines(text));
    expect([t.total, t.tax]).toEqual([total, tax]);
  });

  it.each<[string, string]>([
    ['Tota l = $ 58.27', 'Total = $ 58.27'],
    ['CREDI T $ 58.27', 'CREDIT $ 58.27'],
    ['T ota l T ax 0.11', 'Total Tax 0.11'],
    // A tax code after an amount, and words of one letter among digits, stay.
    ['MILK 2.89 T', 'MILK 2.89 T'],
    ['2 x A 4.00', '2 x A 4.00'],
  ])('joins split letters: %j', (line, joined) => {
    expect(joinSplitLetters(line)).toBe(joined);
  });
});

describe('taxes that make the sums together', () => {
  it.each<[string, string | undefined, number | null]>([
    // A second rate whose label OCR garbled: the two make subtotal + tax = total (a few cents of rounding).
    ['Sub Total 264.00\nVAT 2% 5.28\nsT 6% 15.84\nTOTAL 285.00', 'INR', 21.12],
    // Federal and provincial tax, each on its own line without a rate.
    ['SUBTOTAL 218.60\nGST CA 10.93\nPST BC 15.30\nTOTAL 244.83', 'CAD', 26.23],
    // A line beside the tax that comes near the difference but does not make it: not added.
    ['SUBTOTAL 218.60\nGST CA 10.93\nPST BC 14.30\nTOTAL 244.83', 'CAD', 10.93],
    // One tax line that already makes the sums: nothing added.
    ['SUBTOTAL 10.00\nTAX 0.80\nTOTAL 10.80\nVISA 10.80', undefined, 0.8],
    // Lines that would make up the difference but are far from the tax line: left out.
    ['SUBTOTAL 10.00\nTAX 0.80\nA\nB\nC\nD\nTOTAL 11.60\nSAVINGS 10% 0.80', undefined, 0.8],
  ])('%j', (text, currency, tax) => {
    expect(findTotals(lines(text), undefined, currency).tax).toBe(tax);
  });
});

describe('taxFromRateTable rows', () => {
  const row = (rate: number | null, net: number, tax: number, gross: number): TaxRateRow => ({ rate, net, tax, gross });
  it.each<[string, TaxRateRow[]]>([
    // Netto / Steuer / Brutto: each rate's row; the total row is no rate.
    ['Steuer % Netto Steuer Brutto\nA= 19,0% 1,68 0,32 2,00\nB= 7,0% 13,27 0,93 14,20\nGesamtbetrag 14,95 1,25 16,20', [row(19, 1.68, 0.32, 2), row(7, 13.27, 0.93, 14.2)]],
    // Gross, net, tax in that order; a rate with a decimal.
    ['TVA 20% 12,00 10,00 2,00\nTVA 5,5% 10,55 10,00 0,55', [row(20, 10, 2, 12), row(5.5, 10, 0.55, 10.55)]],
    // A rate column without its % sign; the zero-rated row is a rate of its own.
    ['VAT Analysis\nRate Code Excl VAT Inc\n20.00 A 2.50 0.50 3.00\n0.00 B 3.20 0.00 3.20', [row(20, 2.5, 0.5, 3), row(0, 3.2, 0, 3.2)]],
    // The zero-rated row first.
    ['VAT RATE SALES VAT\nA 0% 2.15 0.00\nB 20 % 4.80 0.80', [row(0, 2.15, 0, 2.15), row(20, 4, 0.8, 4.8)]],
    // The net and the rate on it.
    ['GST 10% 20.00 2.00', [row(10, 20, 2, 22)]],
    // A rate column without its % and a code column: the rate, the gross and the tax.
    ['SATZ MWST% BETRAG MWST\n0 2.60 12.40 0.31\n1 8.10 32.43 2.43', [row(2.6, 12.09, 0.31, 12.4), row(8.1, 30, 2.43, 32.43)]],
    // A total row that the rate rows do not make (a row misread): no rows rather than wrong ones.
    ['Steuer % Netto Steuer Brutto\nA= 19,0% 1,68 0,32 2,00\nGesamtbetrag 14,95 1,25 16,20', []],
  ])('%j', (text, rows) => {
    expect(taxFromRateTable(lines(text))?.rows).toEqual(rows);
  });
});

describe('tax per rate', () => {
  it.each<[string, string | undefined, TaxRateRow[]]>([
    // A rate table's rows, making the tax the receipt states.
    ['SUMME EUR 16,20\nSteuer % Netto Steuer Brutto\nA= 19,0% 1,68 0,32 2,00\nB= 7,0% 13,27 0,93 14,20\nGesamtbetrag 14,95 1,25 16,20', 'EUR', [
      { rate: 19, net: 1.68, tax: 0.32, gross: 2 },
      { rate: 7, net: 13.27, tax: 0.93, gross: 14.2 },
    ]],
    // One rated tax line whose rate on the rest of the total is the tax.
    ['SUBTOTAL 10.00\nVAT 20% 2.00\nTOTAL 12.00', 'GBP', [{ rate: 20, net: 10, tax: 2, gross: 12 }]],
    // Sales tax at three places.
    ['SUBTOTAL 40.00\nTAX 8.875% 3.55\nTOTAL 43.55', undefined, [{ rate: 8.875, net: 40, tax: 3.55, gross: 43.55 }]],
    // A rate the tax is not (a misread rate or amount): no row made up.
    ['SUBTOTAL 10.00\nVAT 20% 1.00\nTOTAL 11.00', 'GBP', []],
    // A tip on top: the total is not the gross at that rate.
    ['SUBTOTAL 10.00\nTAX 8% 0.80\nTIP 2.00\nTOTAL 12.80', undefined, []],
    // No rate printed.
    ['SUBTOTAL 10.00\nTAX 0.80\nTOTAL 10.80', undefined, []],
  ])('%j', (text, currency, rows) => {
    expect(findTotalsWithSources(lines(text), undefined, currency).rates).toEqual(rows);
  });
});

describe('findTotalsWithSources', () => {
  it('reports cash − change that contradicts the printed total', () => {
    expect(findTotalsWithSources(lines('TOTAL 12.50\nCASH 20.00\nCHANGE 7.50')).contradicted).toBe(false);
    expect(findTotalsWithSources(lines('TOTAL 16.43\nCASH 20.00\nCHANGE 3.55')).contradicted).toBe(false);
    expect(findTotalsWithSources(lines('GRAND TOTAL 12.50\nCASH 20.00\nCHANGE 2.50')).contradicted).toBe(true);
  });

  it('says which line each amount came from', () => {
    const { sources } = findTotalsWithSources(lines('SUBTOTAL 9.00\nTAX 0.54\nTOTAL\n9.54\nCASH 10.00\nCHANGE 0.46'));
    expect(sources).toEqual({ subtotal: 0, tax: 1, total: 3 });
  });
});
