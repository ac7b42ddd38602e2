import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { zipEntryNames } from '../../../tests/support/unzip.js';
import { XlsxWriter, columnName, xmlText } from './xlsx.writer.js';

/** Collects what a stream is given until it ends. */
function collect(out: PassThrough): Promise<Buffer> {
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve, reject) => {
    out.once('end', () => resolve(Buffer.concat(chunks)));
    out.once('error', reject);
  });
}

async function load(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  return workbook;
}

describe('xmlText', () => {
  it.each([
    ['plain text', 'plain text'],
    ['Fish & Chips <2> "large"', 'Fish &amp; Chips &lt;2&gt; &quot;large&quot;'],
    ['bell\u0007 and nul\u0000 go', 'bell and nul go'],
    ['tab\tline\nreturn\r stay', 'tab\tline\nreturn\r stay'],
    ['emoji 🧾 stays', 'emoji 🧾 stays'],
    ['lone \uD83E high and \uDDFE low go', 'lone  high and  low go'],
    ['non-characters \uFFFE\uFFFF go', 'non-characters  go'],
  ])('%j → %j', (input, expected) => {
    expect(xmlText(input)).toBe(expected);
  });
});

describe('columnName', () => {
  it.each([
    [0, 'A'],
    [25, 'Z'],
    [26, 'AA'],
    [51, 'AZ'],
    [52, 'BA'],
    [95, 'CR'],
    [701, 'ZZ'],
    [702, 'AAA'],
  ])('%i → %s', (index, name) => {
    expect(columnName(index)).toBe(name);
  });
});

describe('XlsxWriter', () => {
  it('writes a workbook that exceljs reads back cell for cell, with its formats, widths and frozen header', async () => {
    const out = new PassThrough();
    const bytes = collect(out);
    const workbook = new XlsxWriter(out, 'Receipts & Co');
    const bold = workbook.style({ bold: true });
    const euros = workbook.style({ numFmt: '"EUR "#,##0.00' });
    const day = workbook.style({ numFmt: 'yyyy-mm-dd' });
    const percent = workbook.style({ numFmt: '0%' });
    expect(workbook.style({ numFmt: '"EUR "#,##0.00' })).toBe(euros);

    const first = workbook.addSheet('Receipts & more', { widths: [28, 12, 12, 12, 60], frozenRows: 1 });
    first.addRow(['file', 'total', 'date', 'quality', 'text'], [bold, bold, bold, bold, bold]);
    first.addRow(
      [{ formula: 'HYPERLINK("originals/a.png","a <1>.png")', result: 'a <1>.png' }, 12.5, new Date(Date.UTC(2024, 2, 5)), 0.87, '  padded\nFish & Chips \u0007🧾  '],
      [0, euros, day, percent, 0],
    );
    // No cell where there is no value, and none for a number that has no cell form.
    first.addRow(['only the first', undefined, undefined, Number.NaN], [0, euros, day, percent]);
    await first.end();
    const second = workbook.addSheet('Summary', { widths: [] });
    second.addRow([-0.1, 1e21, 'x'.repeat(100)], []);
    await workbook.finish();

    const data = await bytes;
    expect((await zipEntryNames(data)).sort()).toEqual(
      ['[Content_Types].xml', '_rels/.rels', 'docProps/app.xml', 'docProps/core.xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml'].sort(),
    );
    const read = await load(data);
    expect(read.creator).toBe('Receipts & Co');
    expect(read.worksheets.map((s) => s.name)).toEqual(['Receipts & more', 'Summary']);
    const sheet = read.getWorksheet('Receipts & more')!;
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect([1, 2, 5].map((c) => sheet.getColumn(c).width)).toEqual([28, 12, 60]);
    expect(sheet.getRow(1).values).toEqual([undefined, 'file', 'total', 'date', 'quality', 'text']);
    expect(sheet.getRow(1).getCell(3).font).toMatchObject({ bold: true });

    const row = sheet.getRow(2);
    expect(row.getCell(1).value).toEqual({ formula: 'HYPERLINK("originals/a.png","a <1>.png")', result: 'a <1>.png' });
    expect(row.getCell(1).font?.bold).toBeFalsy();
    expect(row.getCell(2).value).toBe(12.5);
    expect(row.getCell(2).numFmt).toBe('"EUR "#,##0.00');
    expect(row.getCell(3).value).toEqual(new Date('2024-03-05T00:00:00Z'));
    expect(row.getCell(3).numFmt).toBe('yyyy-mm-dd');
    expect(row.getCell(4).value).toBe(0.87);
    expect(row.getCell(4).numFmt).toBe('0%');
    expect(row.getCell(5).value).toBe('  padded\nFish & Chips 🧾  ');

    expect(sheet.getRow(3).cellCount).toBe(1);
    expect(sheet.getRow(3).getCell(4).value).toBeNull();
    expect(read.getWorksheet('Summary')!.getRow(1).values).toEqual([undefined, -0.1, 1e21, 'x'.repeat(100)]);
  });

  it('holds back while the reader does not take the sheet, and goes on once it does', async () => {
    const out = new PassThrough();
    const workbook = new XlsxWriter(out, 'test');
    const sheet = workbook.addSheet('Rows', { widths: [] });
    // Text that does not compress: the zip's and the output's buffers cannot hold it all.
    for (let i = 0; i < 5_000; i++) sheet.addRow([i, randomBytes(300).toString('hex')], []);
    let caughtUp = false;
    const waiting = sheet.caughtUp().then(() => {
      caughtUp = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Nobody reads `out`: the zip stops taking the sheet in, so the sheet's rows wait with the writer.
    expect(caughtUp).toBe(false);
    const bytes = collect(out);
    await waiting;
    await workbook.finish();
    const read = await load(await bytes);
    expect(read.getWorksheet('Rows')!.rowCount).toBe(5_000);
  });

  it('stops waiting for the zip when the client goes away', async () => {
    const out = new PassThrough();
    const workbook = new XlsxWriter(out, 'test');
    const sheet = workbook.addSheet('Rows', { widths: [] });
    for (let i = 0; i < 5_000; i++) sheet.addRow([i, randomBytes(300).toString('hex')], []);
    const waiting = sheet.caughtUp();
    out.destroy();
    await expect(waiting).rejects.toThrow('client went away');
    await expect(workbook.finish()).rejects.toThrow('client went away');
  });

  it('reports a failing output where the writing waits, and nowhere else', async () => {
    const out = new PassThrough();
    const workbook = new XlsxWriter(out, 'test');
    const sheet = workbook.addSheet('Rows', { widths: [] });
    sheet.addRow(['one'], []);
    out.destroy(new Error('connection reset'));
    // A turn of the event loop with the error unawaited: an unhandled rejection would fail the run.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(workbook.finish()).rejects.toThrow('connection reset');
  });

  it('leaves the output unended when abandoned, so a broken download cannot pass for a whole workbook', async () => {
    const out = new PassThrough();
    let ended = false;
    out.on('data', () => undefined).once('end', () => (ended = true));
    const workbook = new XlsxWriter(out, 'test');
    const sheet = workbook.addSheet('Rows', { widths: [] });
    sheet.addRow(['one'], []);
    await sheet.caughtUp();
    workbook.abandon();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(out.writableEnded).toBe(false);
    expect(ended).toBe(false);
    out.destroy();
  });
});
