import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { receiptRecordSchema } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { printedReceipt } from './support/printed-receipt.js';
import { repoRoot } from './support/service-process.js';

const run = promisify(execFile);

describe('extract CLI', () => {
  it('prints one JSON line per file, and an error line for a file it cannot read without stopping', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'extract-cli-'));
    const fake = path.join(dir, 'notes.pdf');
    await writeFile(fake, 'just some text, not a PDF');
    // A made-up Malaysian receipt from 2017: ringgit, and a date out of today's reasonable range.
    const receipt = path.join(dir, 'receipt.jpg');
    await writeFile(receipt, await printedReceipt(['KEDAI MAJU SDN BHD', 'DATE 21/09/2017 10:20', 'NAILS RM 5.40', 'HINGES RM 5.00', 'TOTAL RM 10.40'], { format: 'jpeg' }));
    const { stdout } = await run('node', ['worker/dist/cli/extract.cli.js', fake, receipt, path.join(dir, 'missing.jpg')], {
      cwd: repoRoot,
      env: { ...process.env, LOG_LEVEL: 'silent' },
    });
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toEqual({ file: fake, error: 'This file is not a JPG, PNG, WebP, HEIC, TIFF, GIF or PDF file.' });
    expect(lines[2]).toMatchObject({ file: path.join(dir, 'missing.jpg'), error: expect.stringMatching(/ENOENT/) });

    const read = lines[1]!;
    expect(Object.keys(read).sort()).toEqual(['file', 'issues', 'ms', 'receipt', 'valid']);
    const record = receiptRecordSchema.parse(read.receipt);
    expect(record.total).toBe(10.4);
    expect(record.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(record.currency).toBe('MYR');
    expect(read.valid).toBe(false); // a 2017 receipt is out of the reasonable date range today
    expect(read.issues).toContain('Date out of reasonable range');
  });
});
