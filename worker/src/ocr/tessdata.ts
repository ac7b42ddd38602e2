import { createHash } from 'node:crypto';
import { mkdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

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
