import { FITTED_NAME_WEIGHTS } from './merchant-name.fitted.js';
import type { NameWeights } from './merchant-name.features.js';

export { FITTED_NAME_WEIGHTS };

/**
 * The weights set by hand on the first receipts: a legal form or trade word and capitals raise a
 * line, an address or a generic word alone sinks it, OCR noise and each line above it lower it, a
 * store line under it and a legal name at the foot raise it.
 */
export const HAND_SET_NAME_WEIGHTS: NameWeights = {
  business: 3, generic: -3, address: -3, capitals: 1, loneLetters: -2, noiseWords: -1.5, scraps: -0.5, rank: -0.4, storeBelow: 1, foot: 1,
};

/** The chooser the rules use: whichever did better on the report halves (npm run bench:rules prints both). */
export const NAME_WEIGHTS: NameWeights = HAND_SET_NAME_WEIGHTS;
