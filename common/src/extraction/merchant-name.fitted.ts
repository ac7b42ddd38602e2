// Written by `npm run train:fields` from 157 tune-half receipts of ../shared: do not edit.
import type { NameWeights } from './merchant-name.features.js';

export const FITTED_NAME_WEIGHTS: NameWeights = {
  business: 2.03,
  generic: -1.7,
  address: -2.18,
  capitals: 0.72,
  loneLetters: -0.26,
  noiseWords: -0.88,
  scraps: -0.16,
  rank: -1.08,
  storeBelow: 0,
  foot: 1.23,
};
