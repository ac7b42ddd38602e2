import { z } from 'zod';
import { laneSchema, type Lane } from './lane.js';

/** How long a lane's receipts took, upload to result, over the last day: GET /api/uploads/processing-times. */
export const laneTimesSchema = z.object({
  lane: laneSchema,
  receipts: z.number().int(),
  p50Ms: z.number(),
  p95Ms: z.number(),
});
export type LaneTimes = z.infer<typeof laneTimesSchema>;
export const processingTimesSchema = z.object({ lanes: z.array(laneTimesSchema), hours: z.number() });
export type ProcessingTimes = z.infer<typeof processingTimesSchema>;

/** The window the figures are measured over. */
export const PROCESSING_TIMES_HOURS = 24;
/** Fewer receipts than this say little about a lane: no figure is shown. */
export const MIN_MEASURED_RECEIPTS = 5;

export const LANE_LABELS: Readonly<Record<Lane, string>> = { express: 'Express Lane', standard: 'Standard Queue' };

/** A duration as people say it: "8 s", "45 s", "2 min", "1 h 5 min". */
export function durationText(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

/**
 * What a page says of a lane's speed, from what was measured: the typical time and the time 95 %
 * of receipts took, with how many receipts that is; null when too few were read to say.
 */
export function laneSpeed(times: ProcessingTimes | undefined, lane: Lane): { typical: string; within: string; basis: string } | null {
  const measured = times?.lanes.find((l) => l.lane === lane);
  if (!measured || measured.receipts < MIN_MEASURED_RECEIPTS) return null;
  return {
    typical: durationText(measured.p50Ms),
    within: `95 % within ${durationText(measured.p95Ms)}`,
    basis: `${measured.receipts} receipts in the last ${times!.hours} h`,
  };
}
