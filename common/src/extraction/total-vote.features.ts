/**
 * What votes for an amount being the total, each counted per line or per sum that says so:
 * a line labelled as the total, plainly (`total`), unmistakably (`strong`: "grand total", "zu
 * zahlen") or with its tax included (`inclusive`); such a line printed after the rounding line
 * (`afterRounding`); a rounding line's amount too large for an adjustment (`rounding`); cash
 * handed over less the change (`change`); a payment line (`payment`); payments adding up to it
 * (`split`); a tax table's gross column (`table`); subtotal less discount (`net`); subtotal, tax,
 * tip and discount adding up to it (`sum`); and being the largest amount voted for (`largest`).
 */
export const VOTE_FEATURES = ['strong', 'inclusive', 'total', 'afterRounding', 'rounding', 'change', 'payment', 'split', 'table', 'net', 'sum', 'largest'] as const;
export type VoteFeature = (typeof VOTE_FEATURES)[number];
export type TotalVoteWeights = Readonly<Record<VoteFeature, number>>;
