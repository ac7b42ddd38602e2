import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { editDistance, parseDate, validMoney } from '@receipts/common';
import { receiptsDir } from './service-process.js';

export interface SroieLabel {
  file: string;
  company: string;
  date: string;
  address: string;
  total: string;
}

export async function loadLabels(): Promise<SroieLabel[]> {
  return JSON.parse(await readFile(path.join(receiptsDir, 'labels.json'), 'utf8')) as SroieLabel[];
}

/** The dataset's line-level transcript in reading order (top to bottom, then left to right). */
export async function groundTruthText(file: string): Promise<string> {
  const raw = await readFile(path.join(receiptsDir, file.replace(/\.jpg$/, '.txt')), 'utf8');
  return raw
    .split('\n')
    .map((row) => row.split(','))
    .filter((cols) => cols.length >= 9)
    .map((cols) => ({ y: Number(cols[1]), x: Number(cols[0]), text: cols.slice(8).join(',') }))
    .sort((a, b) => a.y - b.y || a.x - b.x)
    .map((l) => l.text)
    .join('\n');
}

/** Labels print the total as on the receipt ("RM 34.80", "$8.70"). */
export function labelTotal(label: SroieLabel): number | null {
  return validMoney(label.total.replace(/^[^\d-]+/, ''));
}

/** Labels print the date as on the receipt; these shops write the day first. */
export function labelDate(label: SroieLabel): string | null {
  return parseDate(label.date, true);
}

const normalizeName = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Similarity of two names, 0 to 1, on their upper-cased letters and digits. */
export function nameSimilarity(a: string | undefined, b: string): number {
  const x = normalizeName(a ?? '');
  const y = normalizeName(b);
  if (!x || !y) return 0;
  return 1 - editDistance(x, y) / Math.max(x.length, y.length);
}

export const MERCHANT_SIMILARITY = 0.8;
