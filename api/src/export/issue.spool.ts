import { createReadStream } from 'node:fs';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ExportSource } from '@receipts/common';

/** What the spool keeps in memory before it moves to a file: a few thousand receipts. */
const MEMORY_BYTES = 4 * 1024 * 1024;

/**
 * Receipts set aside while the first sheet is written, to be read back in the same order for
 * the second: the workbook reads the database once, and the set-aside ones stay in memory only
 * up to a few MB (beyond that they go to a temporary file, one JSON line each), so memory stays
 * flat whatever share of the receipts has issues.
 */
export class IssueSpool {
  private lines: string[] = [];
  private bytes = 0;
  private file: string | null = null;
  private dir: string | null = null;

  async push(source: ExportSource): Promise<void> {
    const line = JSON.stringify(source);
    this.lines.push(line);
    this.bytes += line.length;
    if (this.bytes >= MEMORY_BYTES) await this.flush();
  }

  /** The receipts pushed, in order, a page at a time. */
  async *pages(size: number): AsyncGenerator<ExportSource[]> {
    let page: ExportSource[] = [];
    if (this.file) {
      await this.flush();
      const lines = createInterface({ input: createReadStream(this.file, 'utf8'), crlfDelay: Infinity });
      for await (const line of lines) {
        page.push(JSON.parse(line) as ExportSource);
        if (page.length === size) {
          yield page;
          page = [];
        }
      }
    } else {
      for (let i = 0; i < this.lines.length; i++) {
        page.push(JSON.parse(this.lines[i]!) as ExportSource);
        // Let go of each line once read.
        this.lines[i] = '';
        if (page.length === size) {
          yield page;
          page = [];
        }
      }
    }
    if (page.length > 0) yield page;
  }

  /** Deletes the temporary file, if there was one. */
  async close(): Promise<void> {
    this.lines = [];
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }

  private async flush(): Promise<void> {
    if (this.lines.length === 0) return;
    if (!this.file) {
      this.dir = await mkdtemp(path.join(os.tmpdir(), 'export-spool-'));
      this.file = path.join(this.dir, 'issues.jsonl');
    }
    await appendFile(this.file, `${this.lines.join('\n')}\n`);
    this.lines = [];
    this.bytes = 0;
  }
}
