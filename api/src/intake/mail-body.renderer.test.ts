import { describe, expect, it } from 'vitest';
import { bodyText, courierText, pageLines } from './mail-body.renderer.js';

describe('the e-mail body as page lines', () => {
  it('keeps an HTML table as columns, a label beside its amount, in the sender\'s case', () => {
    const text = bodyText({ html: '<h1>Shop</h1><table><tr><th>Item</th><th>Price</th></tr><tr><td>Total</td><td>$7.23</td></tr></table>', text: 'plain' })!;
    expect(text.split('\n').map((l) => l.trim())).toEqual(['Shop', '', 'Item    Price', 'Total   $7.23']);
  });
  it('falls back to the text part, and to nothing', () => {
    expect(bodyText({ html: '<p> </p>', text: 'Total 7.23' })).toBe('Total 7.23');
    expect(bodyText({ html: null, text: '  ' })).toBeNull();
  });
  it('writes what Courier cannot as ?', () => {
    expect(courierText('Café € £ ¥1,234 “x” 日本 ₹9 \u0007')).toBe('Café € £ ¥1,234 “x” ?? ?9 ?');
  });
  it('folds blank runs, wraps long lines, and stops at 5 pages', () => {
    expect(pageLines('\n\na\n\n\n\nb\tc\r\n')).toEqual(['a', '', 'b    c']);
    expect(pageLines('x'.repeat(200))).toEqual(['x'.repeat(90), 'x'.repeat(90), 'x'.repeat(20)]);
    expect(pageLines('line\n'.repeat(1000))).toHaveLength(400);
  });
});
