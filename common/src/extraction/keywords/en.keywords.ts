import type { KeywordTable } from './keyword-table.js';

/** "total" as OCR misreads it: tota1, tolal, totai, tatal, t0tal, tctal, tdtal; "totl" as tills abbreviate it. */
export const OCR_TOTAL = 't[o0acd][t1l][a4o]?[l1i]';

export const EN_KEYWORDS: KeywordTable = {
  language: 'en',
  ocrModel: 'eng',
  ocrMarkers: ['subtotal', 'sub total', 'change', 'thank you', 'amount', 'tax', 'cashier', 'balance due', 'tip'],
  // "Net amount" is what is paid on Asian receipts; European VAT tables print "Net" as a column, read by the rate table.
  // "otal": the T at a line's start lost to a photo's edge or shadow.
  total: [OCR_TOTAL, '[o0]t[a4]l', 'net\\s*(amount|amt)'],
  grandTotal: [
    `grand\\s*${OCR_TOTAL}`, `${OCR_TOTAL}\\s*(payable|due|amount|to\\s*pay)`, `net+\\s*${OCR_TOTAL}`, `${OCR_TOTAL}\\s*net+`,
    'amount\\s*(due|payable|to\\s*pay)', 'balance\\s*(due|to\\s*pay)', `${OCR_TOTAL}\\s*after\\s*(adj|round)`, `rounded\\s*${OCR_TOTAL}`,
    `${OCR_TOTAL}\\s*rounded`, 'to\\s*pay',
  ],
  subtotal: [`sub[\\s-]*${OCR_TOTAL}`, 'sub[\\s/-]*tt[l1]', `${OCR_TOTAL}\\s*before`, 'amount\\s*before', `${OCR_TOTAL}\\s*excl`],
  tax: ['tax', 'vat', 'gst', 'hst', 'pst', 'qst', 'sst', 'cgst', 'sgst', 'igst', 'sales\\s*tax', 'service\\s*tax'],
  taxIncluded: ['incl(uded|uding|usive)?\\.?', 'inc\\.?'],
  tip: ['tip', 'tips', 'gratuity', 'service\\s*charge'],
  suggestion: ['suggest(ed|ion|ions)?', 'tip\\s*guide', 'gratuity\\s*guide'],
  discount: ['disc(ount)?s?', 'savings?', 'coupon', 'voucher', 'promo(tion)?', 'less', 'you\\s*saved', 'instant\\s*savings'],
  rounding: ['round(ing)?(\\s*adj(ustment)?)?'],
  // "Balance" alone is the change handed back (Malaysia); "balance due" is the total.
  change: ['change(\\s*due)?', 'chng', 'cash\\s*back', 'balance(?!\\s*due)'],
  cash: ['cash', 'tendered', 'cash\\s*tend(ered)?', 'received'],
  card: ['visa', 'master\\s*card', 'mastercard', 'amex', 'debit', 'credit', 'card', 'eftpos', 'contactless', 'apple\\s*pay', 'google\\s*pay', 'paid', 'payment',
    // A card slip's "Amount: $5.76": first on its line, before a currency sign ("Tax amount" is no payment).
    '(?<=^[^\\p{L}]{0,3})amount(?=\\s*:?\\s*(?:[$€£]|$))'],
  count: [`${OCR_TOTAL}\\s*(qty|quantity|items?|number)`, 'item\\s*count', 'no\\.?\\s*of\\s*items', 'items?\\s*sold', 'qty', 'quantity'],
  taxBase: ['taxable(\\s*(amount|sales|total))?'],
  date: ['date', 'dated', 'dt'],
  time: ['time'],
  receiptNumber: ['receipt', 'rcpt', 'invoice', 'inv', 'bill', 'trans(action)?', 'trx', 'txn', 'order', 'doc(ument)?', 'check', 'chk', 'ticket', 'slip', 'ref'],
  tin: ['tin', 'vat\\s*(reg(istration)?|no|number|id)', 'gst\\s*(reg(istration)?|no|id|in)', 'gstin', 'abn', 'ein', 'tax\\s*id', 'hst\\s*(no|#|reg)', 'bn'],
  otherDate: ['exp(iry|ires?|iration)?', 'valid', 'until', 'points?', 'period', 'from', 'to', 'due', 'use\\s*by', 'best\\s*before', 'member\\s*since', 'birthday', 'return(s)?\\s*(by|until)'],
  business: ['ltd', 'limited', 'llc', 'l\\.l\\.c', 'inc', 'corp(oration)?', 'co\\.', 'company', 'pty', 'plc', 'pte', 'k\\.k', 'enterprises?', 'trading', 'restaurant', 'hardware', 'stationery', 'bakery', 'bakeries', 'cafe', 'caf(é|e)t(é|e)ria', 'mart', 'market', 'store', 'shop', 'supermarket', 'pharmacy', 'florist', 'pizza', 'pizzeria', 'grill', 'bar', 'tavern', 'pub', 'bistro', 'brewery', 'station', 'hotel', 'resorts?', 'diner', 'deli', 'foods?', 'wholesale', 'retail', 'centre', 'center', 'kitchen'],
  greeting: ['welcome', 'thank\\s*you', 'thanks'],
  documentTitle: ['receipt', '(simplified\\s*)?tax\\s*invoice', 'official\\s*receipt', 'invoice', 'copy', 'duplicate', 'customer\\s*copy', '(customer|merchant)\\s*receipt(\\s*copy)?', 'transaction\\s*record', 'sales\\s*receipt'],
  address: ['street', 'road', 'avenue', 'ave', 'blvd', 'boulevard', 'suite', 'unit', 'floor', 'flr', 'lot', 'highway', 'hwy', 'drive', 'lane'],
  contact: ['tel', 'phone', 'fax', 'www', 'http', 'e-?mail'],
  servedBy: ['served\\s+by', 'cashier', 'server', 'operator', 'clerk'],
  staff: ['host', 'table', 'tbl', 'guests?', 'covers?', 'check', 'chk', 'order', 'register', 'store\\s*(number|no\\.?|#)'],
  columnHeader: ['item', 'items', 'qty', 'quan(tity)?', 'price', 'description', 'descript', 'amount', 'amt', 'cost', 'unit'],
  summaryWords: ['subtotal', 'total', 'amount', 'taxable', 'salestax', 'taxamount', 'taxamt', 'rounding', 'cashamount', 'balance', 'amountdue', 'grandtotal', 'totalamount', 'netamount'],
  categoryNames: {
    gas: ['petrol', 'fuel', 'gas station', 'diesel', 'unleaded'],
    pharmacy: ['pharmacy', 'chemist', 'drug ?store', 'medical', 'clinic'],
    restaurant: [
      'restaurant', 'cafe', 'café', 'coffee', 'bistro', 'bar', 'grill', 'pizza', 'burger', 'kitchen', 'food', 'dine', 'eatery', 'noodle', 'sushi',
      'bakery', 'bakeries', 'confectionery', 'seafood',
    ],
    grocery: ['grocer(y|ies)', 'supermarket', 'hypermarket', 'mart', 'market', 'fresh'],
    retail: ['hardware', 'stationery', 'book', 'florist', 'handicraft', 'electrical', 'supplies', 'trading', 'store', 'shop', 'boutique', 'mall', 'd\\.?i\\.?y', 'printing', 'print'],
  },
  categoryItems: {
    gas: ['petrol', 'diesel', 'unleaded', 'fuel'],
    pharmacy: ['tablet', 'capsule', 'syrup', 'paracetamol', 'panadol', 'vitamin', 'plaster', 'mg'],
    restaurant: ['rice', 'noodle', 'chicken', 'coffee', 'tea', 'latte', 'burger', 'pizza', 'meal', 'soup', 'drink', 'juice'],
    grocery: ['milk', 'bread', 'egg', 'eggs', 'sugar', 'flour', 'vegetable', 'fruit', 'detergent'],
    retail: ['pen', 'paper', 'file', 'battery', 'screw', 'nail', 'paint', 'cable', 'tool', 'tape', 'rod', 'sheet', 'bolt', 'glue'],
  },
  months: {
    jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6, jul: 7, july: 7,
    aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11, november: 11, dec: 12, december: 12,
  },
};
