import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { receiptRecordSchema } from '@receipts/common';
import { describe, expect, it } from 'vitest';
import { receiptsDir, repoRoot } from './support/service-process.js';

const run = promisify(execFile);

describe('extract CLI', () => {
  it('prints one JSON line per file, and an error line for a file it cannot read without stopping', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'extract-cli-'));
    const fake = path.join(dir, 'notes.pdf');
    await writeFile(fake, 'just some text, not a PDF');
    const receipt = path.join(receiptsDir, 'X51005568881.jpg');
    const { stdout } = await run('node', ['worker/dist/extract.cli.js', fake, receipt, path.join(dir, 'missing.jpg')], {
      cwd: repoRoot,
      env: { ...process.env, LOG_LEVEL: 'silent' },
    });
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toEqual({ file: fake, error: 'This file is not a JPG, PNG, WebP, HEIC or PDF file.' });
    expect(lines[2]).toMatchObject({ file: path.join(dir, 'missing.jpg'), error: expect.stringMatching(/ENOENT/) });

    const read = lines[1]!;
    expect(Object.keys(read).sort()).toEqual(['file', 'issues', 'ms', 'receipt', 'valid']);
    const record = receiptRecordSchema.parse(read.receipt);
    expect(record.total).toBe(10.4);
    expect(record.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(record.currency).toBe('MYR');
    expect(read.valid).toBe(false); // a 2019 receipt is out of the reasonable date range today
    expect(read.issues).toContain('Date out of reasonable range');
  });
});
