/**
 * Every cache of this process, made here and only here (`keyed`): `/metrics` reads their counts
 * from it, and `forgetEverything` (another process wrote to SQLite, the bus was away) reaches each
 * of them, so a new cache cannot be missed by either. What a domain event makes each forget is the
 * invalidation table's (`server/invalidation/`).
 */
import type { CountedCache } from './counts';
import { type KeyedCache, type KeyedCacheOptions, keyedCache } from './keyedCache';
import { type Renderings, renderings } from './renderings';

/** What the registry holds: counted, and able to forget everything. */
export interface RegisteredCache extends CountedCache {
  readonly name: string;
  forgetAll(): void;
}

export interface CacheRegistry {
  /** Makes a cache, known by its name (unique here). */
  keyed<K, V>(options: KeyedCacheOptions<K, V>): KeyedCache<K, V>;
  /** Makes what holds the renderings of shared objects (`renderings.ts`), known by its name. */
  renderings<S extends object, V>(options: { name: string }): Renderings<S, V>;
  /** The caches made, by name. */
  readonly caches: ReadonlyMap<string, RegisteredCache>;
  /** What is kept beside the caches and must start over with them (the home feed's index), by name. */
  onForgetEverything(name: string, startOver: () => void): void;
  /** The names of the caches and of what starts over with them. */
  names(): string[];
  /** Every cache forgets everything; `except` (tests) leaves one of them as it is. */
  forgetEverything(except?: string): void;
}

export function cacheRegistry(clock: () => number = Date.now): CacheRegistry {
  const caches = new Map<string, RegisteredCache>();
  const startOvers = new Map<string, () => void>();
  const unique = (name: string) => {
    if (caches.has(name) || startOvers.has(name)) throw new Error(`A cache named ${name} exists already`);
  };
  return {
    keyed<K, V>(options: KeyedCacheOptions<K, V>) {
      unique(options.name);
      const cache = keyedCache(options, clock);
      caches.set(options.name, cache);
      return cache;
    },
    renderings<S extends object, V>({ name }: { name: string }) {
      unique(name);
      const made = renderings<S, V>(name);
      caches.set(name, made);
      return made;
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
