// Written by `npm run train:fields` from 59 tune-half receipts of ../shared: do not edit.
import type { TotalVoteWeights } from './totals.rule.js';

export const FITTED_VOTE_WEIGHTS: TotalVoteWeights = {
  strong: 1.28,
  inclusive: 0.46,
  total: 0.62,
  afterRounding: 0.63,
  rounding: 0.59,
  change: 0.55,
  payment: -0.03,
  split: 0.25,
  table: -0.03,
  net: -0.24,
  sum: 0.27,
  largest: 0.88,
};
