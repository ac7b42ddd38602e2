/**
 * What makes a line of the header look like a name: a legal form or trade word, a greeting or a
 * generic word alone, an address, capitals, lone letters, OCR noise (letters and digits run
 * together, "P36lqo1"; short lower-case scraps, "wl", "mR"), its rank among the name-like lines,
 * a store line under it, and standing at the foot.
 */
export const NAME_FEATURES = ['business', 'generic', 'address', 'capitals', 'loneLetters', 'noiseWords', 'scraps', 'rank', 'storeBelow', 'foot'] as const;
export type NameFeature = (typeof NAME_FEATURES)[number];
export type NameWeights = Readonly<Record<NameFeature, number>>;
