/**
 * Every cache of this process, made here and only here (`keyed`): `/metrics` reads their counts
 * from it, and `forgetEverything` (another process wrote to SQLite, the bus was away) reaches each
 * of them, so a new cache cannot be missed by either. What a domain event makes each forget is the
 * invalidation table's (`server/invalidation/`).
 */
import { type KeyedCache, type KeyedCacheOptions, keyedCache } from './keyedCache';

export interface CacheRegistry {
  /** Makes a cache, known by its name (unique here). */
  keyed<K, V>(options: KeyedCacheOptions<K, V>): KeyedCache<K, V>;
  /** The caches made, by name. */
  readonly caches: ReadonlyMap<string, KeyedCache<unknown, unknown>>;
  /** What is kept beside the caches and must start over with them (the home feed's index), by name. */
  onForgetEverything(name: string, startOver: () => void): void;
  /** The names of the caches and of what starts over with them. */
  names(): string[];
  /** Every cache forgets everything; `except` (tests) leaves one of them as it is. */
  forgetEverything(except?: string): void;
}

export function cacheRegistry(clock: () => number = Date.now): CacheRegistry {
  const caches = new Map<string, KeyedCache<unknown, unknown>>();
  const startOvers = new Map<string, () => void>();
  const unique = (name: string) => {
    if (caches.has(name) || startOvers.has(name)) throw new Error(`A cache named ${name} exists already`);
  };
  return {
    keyed<K, V>(options: KeyedCacheOptions<K, V>) {
      unique(options.name);
      const cache = keyedCache(options, clock);
      caches.set(options.name, cache as KeyedCache<unknown, unknown>);
      return cache;
    },
    caches,
    onForgetEverything(name, startOver) {
      unique(name);
      startOvers.set(name, startOver);
    },
    names: () => [...caches.keys(), ...startOvers.keys()],
    forgetEverything(except) {
      for (const [name, cache] of caches) if (name !== except) cache.forgetAll();
      for (const [name, startOver] of startOvers) if (name !== except) startOver();
    },
  };
}
