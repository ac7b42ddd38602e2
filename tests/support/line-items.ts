import type { LineItem } from '@receipts/common';
import { nameSimilarity } from './sroie.js';

/** A labelled line item, as a set's labels give it (its description and amount). */
export interface LabelledItem {
  description: string;
  amount: number;
}

/** A found item counts when its amount is exact and its description similar (≥ 0.6); each label matches once. */
export const ITEM_DESCRIPTION_SIMILARITY = 0.6;

export interface ItemTally {
  tp: number;
  fp: number;
  fn: number;
}

export function matchItems(found: readonly LineItem[], labelled: readonly LabelledItem[]): ItemTally {
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
