export { JOBS_AHEAD, startReceiptWorker, type ReceiptWorkerHandle } from './receipt.worker.js';
export { runPipeline } from './receipt.pipeline.js';
export { lowerWholeProcess } from './background-priority.js';
