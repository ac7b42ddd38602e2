export { startReceiptWorker, type ReceiptWorkerHandle } from './receipt.worker.js';
export { runPipeline } from './receipt.pipeline.js';
export { promoteStarvingStandardJobs } from './lane-aging.js';
