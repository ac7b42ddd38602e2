import { readdir } from 'node:fs/promises';
import os from 'node:os';
import { issueFlag, shownIssues, type ExportSource } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { IssueSpool } from './issue.spool.js';

const source = (n: number, text = ''): ExportSource => ({
  filename: `receipt-${n}.jpg`,
  receipt: { id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, merchantName: `Shop ${n}`, total: n, category: 'other', quality: 0.9, items: [], rawText: text, ...shownIssues([issueFlag('legacy', { text: 'Missing total amount' })]), valid: false },
});

async function readBack(spool: IssueSpool, size: number): Promise<ExportSource[][]> {
  const pages: ExportSource[][] = [];
  for await (const page of spool.pages(size)) pages.push(page);
  return pages;
}

const spoolDirs = async () => (await readdir(os.tmpdir())).filter((f) => f.startsWith('export-spool-'));

describe('IssueSpool', () => {
  it('gives back what it was given, in order, in pages of the size asked', async () => {
    const spool = new IssueSpool();
    for (let n = 1; n <= 7; n++) await spool.push(source(n));
    const pages = await readBack(spool, 3);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(Array.from({ length: 7 }, (_, i) => source(i + 1)));
    await spool.close();
  });

  it('moves to a temporary file past a few MB, keeps the order across memory and file, and deletes the file on close', async () => {
    const before = await spoolDirs();
    const spool = new IssueSpool();
    const text = 'x'.repeat(2000);
    for (let n = 1; n <= 3000; n++) await spool.push(source(n, text));
    expect((await spoolDirs()).length).toBe(before.length + 1);
    const read = (await readBack(spool, 500)).flat();
    expect(read).toHaveLength(3000);
    expect(read.map((s) => s.receipt.total)).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
    await spool.close();
    expect(await spoolDirs()).toEqual(before);
  });

  it('an empty spool gives no pages', async () => {
    const spool = new IssueSpool();
    expect(await readBack(spool, 10)).toEqual([]);
    await spool.close();
  });
});
