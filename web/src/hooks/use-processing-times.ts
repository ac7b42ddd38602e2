import { laneSpeed, type Lane, type ProcessingTimes } from '@receipts/common';
import { useQuery } from '@tanstack/react-query';

/** What a lane's receipts took over the last day, as pages say it (null: too few read to say). */
export function useLaneSpeed(): (lane: Lane) => ReturnType<typeof laneSpeed> {
  const times = useQuery<ProcessingTimes>({ queryKey: ['/api/uploads/processing-times'], meta: { silent: true }, staleTime: 60_000 }).data;
  return (lane) => laneSpeed(times, lane);
}
