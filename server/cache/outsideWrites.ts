/**
 * Writes no event tells of. On SQLite another process may commit to the same file (a tool such as
 * `npm run admin` or `check:counters`, a second instance): SQLite's `data_version` says so for the
 * price of one pragma, so a request first asks, and every cache (`registry.ts`) forgets everything when
 * it changed. The caches then need no short clock on SQLite (`config/`: its longer defaults).
 * PostgreSQL gives no such signal: there the caches keep their times (docs/api-decisions.md,
 * "Shared rows"). The bus's rejoin after Redis was away starts them over the same way (context.ts).
 */
import type { CacheRegistry } from './registry';

/**
 * A check to run before each request: the caches forget everything if another process committed.
 * The pragma is asked at most once per `intervalMs`: it opens a read transaction and takes file locks,
 * a real share of a request answered from memory (docs/benchmarks/log/2026-11-27.md, "A pragma, headers and random
 * bytes fewer per request"), so a commit elsewhere is noticed within that interval.
 */
export function forgetOnOutsideWrites(
  committedElsewhere: (() => boolean) | undefined,
  caches: Pick<CacheRegistry, 'forgetEverything'>,
  intervalMs: number,
  clock: () => number = performance.now.bind(performance),
) {
  if (!committedElsewhere) return () => {};
  let nextCheck = -Infinity;
  return () => {
    const now = clock();
    if (now < nextCheck) return;
    nextCheck = now + intervalMs;
    if (committedElsewhere()) caches.forgetEverything();
  };
}
