import type { CacheCounts } from './counts';

/**
 * For memos of what never goes stale (the same input gives the same output for ever: a next-page
 * link, a blurhash): nothing needs forgetting, so they are bounded maps, not caches (`registry.ts`).
 *
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
