import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { MERCHANT_SIMILARITY, nameSimilarity } from './sroie.js';
import { receiptsDir } from './service-process.js';

/** ../shared/receipts-world: real-world receipts (photos, rotated scans, PDFs) with hand-checked labels. */
export const worldDir = path.resolve(receiptsDir, '../receipts-world');
export const worldAvailable = existsSync(path.join(worldDir, 'labels.json'));

export interface WorldLabel {
  file: string;
  company: string;
  company_alts?: string[];
  date?: string;
  date_iso?: string;
  date_iso_alts?: string[];
  total: string;
  currency: string;
  subtotal?: number;
  tax?: number;
  tip?: number;
  kind: 'photo' | 'scan' | 'pdf' | 'screenshot';
  rotated: number;
  country: string;
  language: string;
  format: string;
}

export async function loadWorldLabels(): Promise<WorldLabel[]> {
  return JSON.parse(await readFile(path.join(worldDir, 'labels.json'), 'utf8')) as WorldLabel[];
}

/** Right when the merchant matches the printed name or one of its other printed forms. */
export function merchantMatches(name: string | undefined, label: WorldLabel): boolean {
  return [label.company, ...(label.company_alts ?? [])].some((c) => nameSimilarity(name, c) >= MERCHANT_SIMILARITY);
}

export function dateMatches(date: string | undefined, label: WorldLabel): boolean {
  return !!date && [label.date_iso, ...(label.date_iso_alts ?? [])].includes(date);
}

export function totalMatches(total: number | null | undefined, label: WorldLabel): boolean {
  return total != null && Math.abs(total - Number(label.total)) < 0.005;
}
