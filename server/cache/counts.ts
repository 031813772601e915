/**
 * A cache's hits, misses and evictions as plain numbers the cache bumps itself, and its size on
 * demand: `/metrics` reads them when scraped (server/metrics/), so a cache read costs an addition.
 */
export interface CacheCounts {
  hits: number;
  misses: number;
  /** Entries pushed out to make room (not those forgotten because they changed or ran out of time). */
  evictions: number;
}

export interface CountedCache {
  readonly counts: CacheCounts;
  /** Entries held now. */
  size(): number;
}

export const cacheCounts = (): CacheCounts => ({ hits: 0, misses: 0, evictions: 0 });
