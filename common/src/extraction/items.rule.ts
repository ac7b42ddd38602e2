import type { LineItem } from '../receipt.schema.js';
import type { RecognizedField } from '../recognized-document.js';
import { fieldMoney, fieldText } from './fields.rule.js';
import { amountsIn } from './money.rule.js';

const NOT_AN_ITEM = /total|tax|gst|vat|cash|change|round|disc|tender|balance|paid|payment|amount|qty|subtotal|visa|card/i;

/** Items the service recognised (spec §3 line item; description defaults to Unknown Item). */
export function itemsFromFields(items: RecognizedField | undefined): LineItem[] {
  return (items?.values ?? []).map((item) => {
    const f = item.fields ?? {};
    const qtyText = fieldText(f.Quantity);
    return {
      description: fieldText(f.Description) ?? 'Unknown Item',
      qty: qtyText !== undefined && Number.isFinite(Number(qtyText)) ? Number(qtyText) : null,
      unitPrice: fieldMoney(f.Price),
      amount: fieldMoney(f.TotalPrice) ?? fieldMoney(f.Amount),
    };
  });
}

/**
 * Items from text lines shaped "description qty @|x unit-price amount" (spec §5), and the
 * common "qty description amount" / "description amount" lines between header and total.
 */
export function itemsFromText(lines: readonly string[]): LineItem[] {
  const items: LineItem[] = [];
  for (const line of lines) {
    if (NOT_AN_ITEM.test(line)) continue;
    const withSign = /^(.*?[A-Za-z].*?)\s+(\d{1,4})\s*(?:@|x|X|\*)\s*(?:[A-Z]{1,3}\$?|\$)?\s*(\d+[.,]\d{2})\s+(?:[A-Z]{1,3}\$?|\$)?\s*(\d+[.,]\d{2})\b/.exec(line);
    if (withSign) {
      items.push({
        description: withSign[1]!.trim(),
        qty: Number(withSign[2]),
        unitPrice: Number(withSign[3]!.replace(',', '.')),
        amount: Number(withSign[4]!.replace(',', '.')),
      });
      continue;
    }
    const qtyFirst = /^(\d{1,3})\s+([A-Za-z][^\d]{2,}?)\s+(?:[A-Z]{1,3}\$?|\$)?\s*(\d+[.,]\d{2})\s*[A-Z]{0,2}$/.exec(line);
    if (qtyFirst) {
      const amount = Number(qtyFirst[3]!.replace(',', '.'));
      const qty = Number(qtyFirst[1]);
      items.push({ description: qtyFirst[2]!.trim(), qty, unitPrice: qty > 0 ? Math.round((amount / qty) * 100) / 100 : null, amount });
    }
  }
  return items;
}

/** Words that place an item, used when the merchant name says nothing. */
export function itemWords(items: readonly LineItem[]): string {
  return items.map((i) => i.description).join(' ');
}

