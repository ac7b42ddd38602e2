import { LANE_PRIORITY, RECEIPT_JOB, RECEIPT_QUEUE, type ReceiptJob } from '@receipts/common';
import { Queue, type ConnectionOptions } from 'bullmq';

export type ReceiptQueue = Queue<ReceiptJob, void, typeof RECEIPT_JOB>;

export function createReceiptQueue(connection: ConnectionOptions, prefix: string): ReceiptQueue {
  return new Queue<ReceiptJob, void, typeof RECEIPT_JOB>(RECEIPT_QUEUE, { connection, prefix });
}

/**
 * The one place an upload becomes a job. The job id is the upload id, so an upload can never
 * be queued twice; the lane sets the priority; transient failures retry with backoff.
 */
export async function enqueueReceiptJob(
  queue: ReceiptQueue,
  job: ReceiptJob,
  attempts: number,
): Promise<void> {
  await queue.add(RECEIPT_JOB, job, {
    jobId: job.uploadId,
    priority: LANE_PRIORITY[job.lane],
    attempts,
    backoff: { type: 'exponential', delay: 2_000 },
    removeOnComplete: { age: 24 * 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  });
}
