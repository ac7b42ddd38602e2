import { readdirSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { printedReceipt } from '../../../tests/support/printed-receipt.js';
import { rememberPixels } from '../page/page-pixels.js';
import { chooseTesseract } from './tesseract.choice.js';
import { lstmOnly } from './tessdata.js';
import { NativeTesseract, parseTesseractTsv, probeNativeTesseract } from './tesseract-native.reader.js';
import { TesseractPool } from './tesseract.pool.js';
import { TesseractTimeoutError } from './tesseract.reader.js';

const TSV_HEADER = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';
const row = (level: number, ids: number[], box: number[], conf: number, text = '') => [level, 1, ...ids, ...box, conf, text].join('\t');

describe('parseTesseractTsv', () => {
  it('makes lines of the words under each line row, with the line box and the words\' mean confidence', () => {
    const tsv = [
      TSV_HEADER,
      row(1, [0, 0, 0, 0], [0, 0, 600, 200], -1),
      row(2, [1, 0, 0, 0], [10, 10, 500, 120], -1),
      row(3, [1, 1, 0, 0], [10, 10, 500, 120], -1),
      row(4, [1, 1, 1, 0], [12, 14, 300, 30], -1),
      row(5, [1, 1, 1, 1], [12, 14, 120, 30], 96.5, 'TOTAL'),
      row(5, [1, 1, 1, 2], [150, 14, 90, 30], 88.5, '10.40'),
      row(4, [1, 1, 2, 0], [12, 60, 200, 30], -1),
      // A word tesseract found nothing in does not make a line.
      row(5, [1, 1, 2, 1], [12, 60, 200, 30], 0, ' '),
      row(2, [2, 0, 0, 0], [10, 150, 400, 40], -1),
      row(3, [2, 1, 0, 0], [10, 150, 400, 40], -1),
      row(4, [2, 1, 1, 0], [20, 150, 380, 40], -1),
      row(5, [2, 1, 1, 1], [20, 150, 160, 40], 70, 'CASH'),
      row(5, [2, 1, 1, 2], [200, 150, 200, 40], 50, '20.00'),
      '',
    ].join('\n');
    const page = parseTesseractTsv(tsv);
    expect(page.lines).toEqual([
      { text: 'TOTAL 10.40', confidence: 0.925, box: { x: 12, y: 14, width: 300, height: 30 } },
      { text: 'CASH 20.00', confidence: 0.6, box: { x: 20, y: 150, width: 380, height: 40 } },
    ]);
    expect(page.confidence).toBeCloseTo((96.5 + 88.5 + 70 + 50) / 4 / 100);
  });

  it('reads nothing from an empty page', () => {
    expect(parseTesseractTsv(`${TSV_HEADER}\n${row(1, [0, 0, 0, 0], [0, 0, 10, 10], -1)}\n`)).toEqual({ lines: [], confidence: 0 });
  });
});

describe('lstmOnly', () => {
  /** A traineddata file of 24 parts, those named present with their number repeated as content. */
  function traineddata(present: Record<number, number>): Buffer {
    const header = Buffer.alloc(4 + 8 * 24);
    header.writeInt32LE(24, 0);
    const parts: Buffer[] = [];
    let at = header.length;
    for (let i = 0; i < 24; i++) {
      const size = present[i];
      header.writeBigInt64LE(BigInt(size ? at : -1), 4 + 8 * i);
      if (!size) continue;
      parts.push(Buffer.alloc(size, i));
      at += size;
    }
    return Buffer.concat([header, ...parts]);
  }
  const partsOf = (data: Buffer) => {
    const offsets = Array.from({ length: 24 }, (_, i) => Number(data.readBigInt64LE(4 + 8 * i)));
    return Object.fromEntries(
      offsets.flatMap((o, i) => (o < 0 ? [] : [[i, data.subarray(o, offsets.slice(i + 1).find((n) => n >= 0) ?? data.length)]])),
    );
  };

  it('keeps the config, the network and what it reads with, and drops the legacy engine', () => {
    const full = traineddata({ 1: 50, 3: 900, 14: 2000, 17: 300, 18: 7, 19: 40, 20: 8, 21: 20, 22: 5, 23: 11 });
    const parts = partsOf(lstmOnly(full));
    expect(Object.keys(parts).map(Number)).toEqual([17, 18, 19, 20, 21, 22, 23]);
    for (const [i, part] of Object.entries(parts)) expect(part.equals(Buffer.alloc(part.length, Number(i)))).toBe(true);
    expect(parts[17]!.length).toBe(300);
    expect(parts[23]!.length).toBe(11);
  });

  it('refuses what is not a traineddata file, or one without a network', () => {
    expect(() => lstmOnly(Buffer.from('GIF89a, not a model at all'))).toThrow('Not a traineddata file');
    expect(() => lstmOnly(traineddata({ 1: 50, 3: 900 }))).toThrow('no LSTM model');
  });
});

const native = probeNativeTesseract();

describe('choosing the tesseract backend (OCR_TESSERACT)', () => {
  it('says why a program cannot be used', () => {
    expect(probeNativeTesseract('/nonexistent/tesseract')).toEqual({ ok: false, reason: expect.stringContaining('ENOENT') });
  });

  it('takes the program when it answers (auto), tesseract.js when told (wasm)', () => {
    expect(chooseTesseract('wasm').backend).toBe('wasm');
    expect(chooseTesseract('auto').backend).toBe(native.ok ? 'native' : 'wasm');
    if (native.ok) expect(chooseTesseract('native')).toEqual({ backend: 'native', reason: expect.stringMatching(/^tesseract \d/) });
    else expect(() => chooseTesseract('native')).toThrow(/apt-get install tesseract-ocr/);
  });
});

async function line(text: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="80"><rect width="100%" height="100%" fill="#fff"/><text x="20" y="55" font-family="DejaVu Sans" font-size="36">${text}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
const signal = () => new AbortController().signal;

/** The tesseract processes this test process runs (Linux /proc), by pid. */
function tesseractChildren(): number[] {
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        return name === 'tesseract' && Number(fields[1]) === process.pid && fields[0] !== 'Z' ? [Number(pid)] : [];
      } catch {
        return []; // ended while listed
      }
    });
}

describe.skipIf(!native.ok)('NativeTesseract (the tesseract program)', () => {
  const reader = new NativeTesseract(1, ['eng', 'deu']);
  afterAll(() => reader.close());

  it('reads a line with its box', async () => {
    const { lines, confidence } = await reader.recognize(await line('TOTAL 12.34'), ['eng'], signal());
    expect(lines.map((l) => l.text)).toEqual(['TOTAL 12.34']);
    expect(lines[0]!.box.x).toBeGreaterThan(10);
    expect(lines[0]!.box.x + lines[0]!.box.width).toBeLessThan(600);
    expect(confidence).toBeGreaterThan(0.8);
  });

  it('reads page after page in one process, each page its own lines', async () => {
    const texts = ['TOTAL 12.34', 'CASH 20.00', 'CHANGE 7.66'];
    for (const text of texts) {
      const { lines } = await reader.recognize(await line(text), ['eng'], signal());
      expect(lines.map((l) => l.text)).toEqual([text]);
    }
    expect(tesseractChildren()).toHaveLength(1);
  });

  it('keeps at most one process per slot: another language set replaces the idle one', async () => {
    await reader.recognize(await line('TOTAL 12.34'), ['eng'], signal());
    const before = tesseractChildren();
    const { lines } = await reader.recognize(await line('SUMME 12,34'), ['deu'], signal());
    expect(lines.map((l) => l.text)).toEqual(['SUMME 12,34']);
    const after = tesseractChildren();
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
  });

  it('kills a page past its time and reads the next', async () => {
    await expect(reader.recognize(await line('SUMME 12,34'), ['deu'], signal(), 1)).rejects.toBeInstanceOf(TesseractTimeoutError);
    const { lines } = await reader.recognize(await line('SUMME 12,34'), ['deu'], signal());
    expect(lines.map((l) => l.text)).toEqual(['SUMME 12,34']);
  });

  it('rejects a cancelled page at once and keeps serving', async () => {
    const controller = new AbortController();
    const pending = reader.recognize(await line('CASH 20.00'), ['eng'], controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(pending).rejects.toThrow('cancelled');
    const { lines } = await reader.recognize(await line('CHANGE 7.66'), ['eng'], signal());
    expect(lines.map((l) => l.text)).toEqual(['CHANGE 7.66']);
  });

  it('reads a page from its remembered pixels (a greymap, no PNG) as from the PNG', async () => {
    const png = await line('TOTAL 12.34');
    const fromPng = await reader.recognize(png, ['eng'], signal());
    const { data, info } = await sharp(png).grayscale().raw().toBuffer({ resolveWithObject: true });
    // The PNG's bytes are unreadable: only the remembered pixels can give this reading.
    const unreadable = Buffer.alloc(png.length, 0x20);
    rememberPixels(unreadable, { data, width: info.width, height: info.height, channels: 1 });
    const fromPixels = await reader.recognize(unreadable, ['eng'], signal());
    expect(fromPixels.lines.map((l) => [l.text, l.box])).toEqual(fromPng.lines.map((l) => [l.text, l.box]));
  });

  it('says why when tesseract cannot read the input', async () => {
    await expect(reader.recognize(Buffer.from('not an image'), ['eng'], signal())).rejects.toThrow(/^tesseract exited \d+: .+/);
  });

  it('reads a receipt line for line as tesseract.js does, boxes and all', async () => {
    const receipt = await printedReceipt(['CORNER GROCERY', 'DATE 14/03/2024', 'MILK 2.49', 'BREAD 1.85', 'TOTAL 4.34', 'THANK YOU']);
    const wasm = new TesseractPool(1, ['eng']);
    try {
      const [a, b] = [await wasm.recognize(receipt, ['eng'], signal()), await reader.recognize(receipt, ['eng'], signal())];
      expect(b.lines.map((l) => [l.text, l.box])).toEqual(a.lines.map((l) => [l.text, l.box]));
      expect(b.confidence).toBeCloseTo(a.confidence, 1);
    } finally {
      await wasm.close();
    }
  });
});
