import { FITTED_VOTE_WEIGHTS } from './total-vote.fitted.js';
import type { TotalVoteWeights } from './total-vote.features.js';

export { FITTED_VOTE_WEIGHTS };

/**
 * The weights set by hand on the first 95 receipts: a printed total outranks cash less change
 * (receipts round cash payments), which outranks one payment line; ties go to the larger amount.
 */
export const HAND_SET_VOTE_WEIGHTS: TotalVoteWeights = {
  strong: 4, inclusive: 3, total: 2, afterRounding: 1.5, rounding: 3.5, change: 2.5, payment: 1, split: 1.5, table: 2, net: 1, sum: 1.5, largest: 0,
};

/** The chooser the rules use: whichever did better on the report halves (npm run bench:rules prints both). */
export const TOTAL_VOTE_WEIGHTS: TotalVoteWeights = HAND_SET_VOTE_WEIGHTS;
