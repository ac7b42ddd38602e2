// Written by `npm run train:fields` from 59 tune-half receipts of ../shared: do not edit.
import type { TotalVoteWeights } from './total-vote.features.js';

export const FITTED_VOTE_WEIGHTS: TotalVoteWeights = {
  strong: 3.57,
  inclusive: 1.43,
  total: 1.6,
  afterRounding: 1.35,
  rounding: 1.18,
  change: 1.54,
  payment: 0.29,
  split: 1,
  table: 0.28,
  net: -0.51,
  sum: 1.19,
  largest: 0.93,
};
