import { z } from 'zod';
import { durationText } from './processing-times.rules.js';

/**
 * Where a waiting upload is in the queue and when it should be read: the uploads that will be
 * taken before it (the express lane before the standard one, then first come first served), and
 * an estimate from the rate receipts were finished at over the last minutes. GET /api/uploads/queue.
 */
export const queuePlaceSchema = z.object({ id: z.uuid(), ahead: z.number().int().min(0), waitMs: z.number().nullable() });
export type QueuePlace = z.infer<typeof queuePlaceSchema>;
export const queuePlacesSchema = z.object({ uploads: z.array(queuePlaceSchema) });
export type QueuePlaces = z.infer<typeof queuePlacesSchema>;

/** The window the finishing rate is measured over: recent enough to follow a busy hour, long enough to count. */
export const QUEUE_RATE_WINDOW_MS = 10 * 60_000;
/** Fewer receipts finished in the window say little of the rate: no estimate. */
export const MIN_FINISHED_FOR_ESTIMATE = 3;

/**
 * How long until an upload with `ahead` uploads before it is read, at the rate `finished`
 * receipts were finished in the last `windowMs`: the ones ahead and itself, one after another at
 * that rate. Null when too few were finished to tell.
 */
export function waitEstimateMs(ahead: number, finished: number, windowMs = QUEUE_RATE_WINDOW_MS): number | null {
  if (finished < MIN_FINISHED_FOR_ESTIMATE) return null;
  return Math.round(((ahead + 1) * windowMs) / finished);
}

/** What an upload's row says of its place: "next in line" or "3 ahead", and "about 40 s" when the rate is known. */
export function queuePlaceText(place: Pick<QueuePlace, 'ahead' | 'waitMs'>): string {
  const where = place.ahead === 0 ? 'next in line' : `${place.ahead} ahead`;
  return place.waitMs === null ? where : `${where} · about ${durationText(place.waitMs)}`;
}
