import type { CacheCounts } from './counts';

/**
 * Sets `key` in a map that keeps at most `max` entries: the oldest written goes first (Map keeps
 * insertion order), counted in `counts.evictions` when given.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number, counts?: CacheCounts): void {
  if (map.size >= max && !map.has(key)) {
    map.delete(map.keys().next().value!);
    if (counts) counts.evictions++;
  }
  map.set(key, value);
}

/** Oldest entries past their time dropped per `setFresh`: a few, so that a set stays cheap. */
const DROPPED_PER_SET = 2;

/**
 * `setBounded` for entries that run out (`until`), which first drops the oldest few already past
 * their time: when a crowd of readers has come and gone, the cache gives their memory back as new
 * entries come, rather than hold it until the bound pushes it out (docs/benchmarks/log/2026-12-04.md, "Follow lists
 * as numbers, reactions as words").
 */
export function setFresh<K, V extends { until: number }>(
  map: Map<K, V>,
  key: K,
  value: V,
  max: number,
  now: number,
  counts?: CacheCounts,
): void {
  let dropped = 0;
  for (const [oldest, entry] of map) {
    if (dropped === DROPPED_PER_SET || entry.until > now) break;
    map.delete(oldest);
    dropped += 1;
  }
  setBounded(map, key, value, max, counts);
}
