import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readlinkSync, statSync, symlinkSync } from 'node:fs';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

const require = createRequire(import.meta.url);

/** The traineddata file of `lang` inside its `@tesseract.js-data/<lang>` npm package (nothing is downloaded). */
export function traineddataOf(lang: string): string {
  let langPath: string;
  try {
    langPath = (require(`@tesseract.js-data/${lang}`) as { langPath: string }).langPath;
  } catch {
    throw new Error(`OCR language "${lang}" is not installed: add the npm package @tesseract.js-data/${lang}.`);
  }
  return path.join(langPath, `${lang}.traineddata.gz`);
}

/**
 * tesseract.js reads every language from one folder (`langPath`), while each npm package holds
 * one language: a folder of links to them, made once per set of languages.
 */
export function tessdataDir(langs: readonly string[]): string {
  const files = new Map(langs.map((lang) => [lang, traineddataOf(lang)]));
  const key = createHash('sha256').update([...files.values()].join('\n')).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), `receipts-tessdata-${process.getuid?.() ?? 0}-${key}`);
  mkdirSync(dir, { recursive: true });
  for (const [lang, file] of files) {
    const link = path.join(dir, `${lang}.traineddata.gz`);
    try {
      symlinkSync(file, link);
    } catch (err) {
      // Made by an earlier process: fine when it points at the same file.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || readlinkSync(link) !== file) throw err;
    }
  }
  return dir;
}

/**
 * The parts of a traineddata file the LSTM recogniser reads (`--oem 1`): the language's config,
 * the network, its unicharset, recoder and dictionaries, and the version. Numbers are tesseract's
 * TessdataType.
 */
const LSTM_PARTS = new Set([0, 17, 18, 19, 20, 21, 22, 23]);

/**
 * A traineddata file with only its LSTM parts. The tesseract program loads the whole file on every
 * page (one process a page), and the legacy engine's parts are three quarters of it: left out,
 * a page costs about a quarter of a CPU-second less and reads the same.
 * The format: an int32 count, that many int64 offsets (−1 for a part not there), the parts.
 */
export function lstmOnly(data: Buffer): Buffer {
  const count = data.readInt32LE(0);
  const header = 4 + 8 * count;
  if (count < 24 || count > 64 || data.length < header) throw new Error('Not a traineddata file');
  const offsets = Array.from({ length: count }, (_, i) => Number(data.readBigInt64LE(4 + 8 * i)));
  const ends = offsets.map((offset, i) => (offset < 0 ? -1 : (offsets.slice(i + 1).find((o) => o >= 0) ?? data.length)));
  const parts: Buffer[] = [];
  const table = Buffer.alloc(header);
  table.writeInt32LE(count, 0);
  let at = header;
  for (let i = 0; i < count; i++) {
    const keep = LSTM_PARTS.has(i) && offsets[i]! >= 0;
    table.writeBigInt64LE(BigInt(keep ? at : -1), 4 + 8 * i);
    if (!keep) continue;
    const part = data.subarray(offsets[i]!, ends[i]!);
    parts.push(part);
    at += part.length;
  }
  if (!parts.length) throw new Error('The traineddata file has no LSTM model');
  return Buffer.concat([table, ...parts]);
}

/**
 * A folder of LSTM-only traineddata files (lstmOnly) made from the npm packages, for the tesseract
 * program (`--tessdata-dir`): the same models tesseract.js reads, so both backends read alike.
 * Each language is made on first use, once per machine (the folder is named after the package
 * files), written whole before it is renamed into place.
 */
export class LstmTessdata {
  readonly dir: string;
  private readonly made = new Map<string, Promise<void>>();

  constructor(langs: readonly string[]) {
    const files = langs.map((lang) => {
      const file = traineddataOf(lang);
      const { size, mtimeMs } = statSync(file);
      return `${file}:${size}:${mtimeMs}`;
    });
    const key = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 12);
    this.dir = path.join(os.tmpdir(), `receipts-tessdata-lstm-${process.getuid?.() ?? 0}-${key}`);
  }

  /** Resolves once every language of `langs` is in the folder. */
  ready(langs: readonly string[]): Promise<void> {
    return Promise.all(
      langs.map((lang) => {
        let making = this.made.get(lang);
        if (!making) {
          making = this.make(lang).catch((err: unknown) => {
            // A failure does not stick: the next page tries again.
            this.made.delete(lang);
            throw err;
          });
          this.made.set(lang, making);
        }
        return making;
      }),
    ).then(() => undefined);
  }

  private async make(lang: string): Promise<void> {
    const target = path.join(this.dir, `${lang}.traineddata`);
    if (await access(target).then(() => true, () => false)) return;
    await mkdir(this.dir, { recursive: true });
    const data = lstmOnly(await promisify(gunzip)(await readFile(traineddataOf(lang))));
    const partial = `${target}.${randomUUID()}.partial`;
    try {
      await writeFile(partial, data);
      await rename(partial, target);
    } finally {
      await rm(partial, { force: true });
    }
  }
}
