import { describe, expect, it } from 'vitest';
import { HTML_WORK_LIMITS, htmlWorkExceeded } from './html-work.limits.js';

const cell = (attrs = '') => `<td${attrs}>x</td>`;

describe('the work an HTML body would cost to turn into text', () => {
  it.each([
    ['an e-receipt: a header, a table of 40 rows of 4 cells', `<h1>Shop</h1><table>${`<tr>${cell().repeat(4)}</tr>`.repeat(40)}</table>`],
    ['a newsletter layout of tables nested 30 deep', `${'<table><tr><td>'.repeat(30)}Total 7.23${'</td></tr></table>'.repeat(30)}`],
    ['cells with ordinary spans', `<table><tr>${cell(' colspan="3"')}${cell(' rowspan="2"')}</tr><tr>${cell()}</tr></table>`],
    ['spans that are no numbers', `<table><tr>${cell(' colspan="100%"')}${cell(' colspan="x"')}</tr></table>`],
  ])('bounded: %s', (_, html) => {
    expect(htmlWorkExceeded(html)).toBeNull();
  });

  it.each([
    ['ten cells spanning 1000 × 1000 (746 bytes that blocked the api 2.9 s)', `<table>${`<tr>${cell(' colspan="1000" rowspan="1000"')}</tr>`.repeat(10)}</table>`, 'tableWork'],
    ['one row 1000 columns wide over 300 rows (the layout is squared)', `<table><tr>${cell(' colspan="1000"')}</tr>${`<tr>${cell()}</tr>`.repeat(300)}</table>`, 'tableWork'],
    ['5,000 nested divs (25 KB that stopped IMAP intake)', '<div>'.repeat(5000), 'depth'],
    ['nested tables, never closed', '<table><tr><td>'.repeat(2000), 'depth'],
    ['more elements than any receipt', '<p>a</p>'.repeat(HTML_WORK_LIMITS.elements + 1), 'elements'],
    ['many small tables that add up', `<table><tr>${cell().repeat(20)}</tr></table>`.repeat(600), 'tableWork'],
  ])('exceeded: %s', (_, html, bound) => {
    expect(htmlWorkExceeded(html)?.exceeded).toBe(bound);
  });

  it('counts what the parser builds, not the bytes: closed siblings do not nest', () => {
    expect(htmlWorkExceeded('<div>a</div>'.repeat(5000))).toBeNull();
    expect(htmlWorkExceeded('<p>a'.repeat(5000))).toBeNull(); // a <p> closes the open one, as in the DOM
  });
});
