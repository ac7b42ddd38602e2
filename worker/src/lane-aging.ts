import { LANE_PRIORITY } from '@receipts/common';
import type { ReceiptQueue } from '@receipts/infra';

const BATCH = 100;

/**
 * Express jobs overtake waiting standard ones; this keeps standard work moving under a steady
 * stream of express work: a standard job that has waited longer than `maxWaitMs` joins the
 * express priority, at its end. Several workers may run it at once: a job promoted twice is
 * simply at the end of the express line.
 */
export async function promoteStarvingStandardJobs(queue: ReceiptQueue, maxWaitMs: number, now = Date.now()): Promise<number> {
  const counts = await queue.getCountsPerPriority([LANE_PRIORITY.express]);
  const expressWaiting = counts[String(LANE_PRIORITY.express)] ?? 0;
  // Prioritized jobs are ordered by priority then arrival, so the oldest standard ones come first.
  const oldest = await queue.getPrioritized(expressWaiting, expressWaiting + BATCH - 1);
  let promoted = 0;
  for (const job of oldest) {
    if (job.priority !== LANE_PRIORITY.standard || now - job.timestamp < maxWaitMs) break;
    await job.changePriority({ priority: LANE_PRIORITY.express });
    promoted += 1;
  }
  return promoted;
}
