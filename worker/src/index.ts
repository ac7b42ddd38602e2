export { JOBS_AHEAD, startReceiptWorker, type ReceiptWorkerHandle } from './receipt.worker.js';
export { runPipeline } from './pipeline/receipt.pipeline.js';
export { promoteStarvingStandardJobs } from './lane-aging.js';
export { lowerWholeProcess } from './process/background-priority.js';
