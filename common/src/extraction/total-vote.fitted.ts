// Written by `npm run train:fields` from 61 tune-half receipts of ../shared: do not edit.
import type { TotalVoteWeights } from './totals.rule.js';

export const FITTED_VOTE_WEIGHTS: TotalVoteWeights = {
  strong: 1.19,
  inclusive: 0.44,
  total: 0.58,
  afterRounding: 0.67,
  rounding: -0.07,
  change: 0.62,
  payment: 0.08,
  split: 0.22,
  table: 0.19,
  net: -0.21,
  sum: 0.24,
  largest: 0.95,
};
