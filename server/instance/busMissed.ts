/** How often the caches started over because the bus may have missed a message, by reason (`/metrics`). */
import { MISSED_REASONS, type MissedReason } from './busSequence';

export interface BusMissedCounts {
  count(reason: MissedReason): void;
  /** Every reason, counted or not (a series at 0 from the start). */
  counts(): ReadonlyMap<MissedReason, number>;
}

export function busMissedCounts(): BusMissedCounts {
  const counts = new Map<MissedReason, number>(MISSED_REASONS.map((reason) => [reason, 0]));
  return {
    count: (reason) => void counts.set(reason, counts.get(reason)! + 1),
    counts: () => counts,
  };
}
