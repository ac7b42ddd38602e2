// What the benchmarks (bench/) may use of the test data: the labelled receipt sets, where they
// are, and how a reading is scored against their labels. Imported there as #test-support/receipt-data.
export * from './line-items.js';
export * from './receipt-sets.js';
export * from './receipts-world.js';
export * from './sroie.js';
export { receiptsDir } from './service-process.js';
