import { z } from 'zod';

export const laneSchema = z.enum(['express', 'standard']);
export type Lane = z.infer<typeof laneSchema>;

/** BullMQ priority per lane: lower runs first. */
export const LANE_PRIORITY: Record<Lane, number> = { express: 1, standard: 2 };

/** Active subscribers ride the express lane (spec §6); everyone else the standard one. */
export function laneFor(owner: { subscriptionActive: boolean }): Lane {
  return owner.subscriptionActive ? 'express' : 'standard';
}
