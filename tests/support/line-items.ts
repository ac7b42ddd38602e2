import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { LineItem } from '@receipts/common';
import { nameSimilarity } from './sroie.js';

/** Line items labelled by hand for receipts of ../shared (descriptions and amounts only). */
export interface LabelledItems {
  set: 'world' | 'sroie';
  file: string;
  items: Array<{ description: string; amount: number }>;
}

const fixturePath = path.resolve(import.meta.dirname, '../../common/src/extraction/fixtures/line-items.fixture.json');

export function loadLineItemLabels(): LabelledItems[] {
  return existsSync(fixturePath) ? (JSON.parse(readFileSync(fixturePath, 'utf8')) as LabelledItems[]) : [];
}

/** A found item counts when its amount is exact and its description similar (≥ 0.6); each label matches once. */
export const ITEM_DESCRIPTION_SIMILARITY = 0.6;

export interface ItemTally {
  tp: number;
  fp: number;
  fn: number;
}

export function matchItems(found: readonly LineItem[], labelled: LabelledItems['items']): ItemTally {
  const open = [...labelled];
  let tp = 0;
  for (const item of found) {
    const i = open.findIndex(
      (l) => item.amount != null && Math.abs(item.amount - l.amount) < 0.005 && nameSimilarity(item.description, l.description) >= ITEM_DESCRIPTION_SIMILARITY,
    );
    if (i >= 0) {
      open.splice(i, 1);
      tp++;
    }
  }
  return { tp, fp: found.length - tp, fn: open.length };
}

export function itemScores(tallies: ItemTally[]): { precision: number; recall: number; f1: number } {
  const t = tallies.reduce((a, b) => ({ tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn }), { tp: 0, fp: 0, fn: 0 });
  const precision = t.tp / Math.max(1, t.tp + t.fp);
  const recall = t.tp / Math.max(1, t.tp + t.fn);
  return { precision, recall, f1: (2 * precision * recall) / Math.max(1e-9, precision + recall) };
}
