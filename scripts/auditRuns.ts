/**
 * Whether the median of `runs` scores is already on one side of `budget`, whatever the runs still to
 * come score: more runs than the median's rank cleared it, or more missed it. The median of the runs
 * made then falls on the same side, so the audit stops a page that cleared its budget in 4 of 7 runs.
 */
export function medianDecided(scores: number[], runs: number, budget: number): boolean {
  const rank = Math.floor((runs - 1) / 2);
  const cleared = scores.filter((score) => score >= budget).length;
  return cleared >= runs - rank || scores.length - cleared > rank;
}
