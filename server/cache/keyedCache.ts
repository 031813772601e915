/**
 * The one building block every cache of this process is made of (through `registry.ts`): values by
 * key, each held until a time (`expiresAt`), at most `max` of them (or of their weight), counted for
 * `/metrics`, and guarded against the race every cache has: a read that started before a change
 * must not keep what it read. A reader does not see the guard: `get` loads and keeps (or not);
 * code that reads elsewhere and keeps itself takes a `mark()` first and hands it to `put`.
 */
import { type CacheCounts, type CountedCache, cacheCounts } from './counts';
import { expiresAt } from './expiry';

export interface KeyedCacheOptions<K, V> {
  /** Its name in `/metrics` and the registry (unique there). */
  name: string;
  /** How long an entry holds; 0 keeps nothing (every read loads: "cache off" is a pass-through). */
  ttlMs: number;
  /** Entries held at most, the oldest written going first; with `weigh`, the sum of their weights. */
  max: number;
  weigh?: (value: V) => number;
  /** Reads the missing keys, together; a key without a value is left out. */
  load?: (keys: K[]) => Promise<Map<K, V>>;
  /** The latest a value may be held (a token's own expiry), as a clock time. */
  holdsUntil?: (value: V) => number;
  /** Whether a value read may be kept at all (a half-stored upload may not). */
  keeps?: (value: V) => boolean;
}

export interface KeyedCache<K, V> extends CountedCache {
  readonly name: string;
  /** False when `ttlMs` is 0: nothing is kept. */
  readonly enabled: boolean;
  /** The value kept, else loaded (by `load`, or the cache's own) and kept; undefined when there is none. */
  get(key: K, load?: (key: K) => Promise<V | undefined>): Promise<V | undefined>;
  /** The values of `keys`, the missing ones loaded in one call of the cache's `load`. */
  getMany(keys: Iterable<K>): Promise<Map<K, V>>;
  /** The value kept while it holds: no read, no count. */
  peek(key: K): V | undefined;
  /** The value kept even past its time (a value read again may keep its old object): no count. */
  peekStale(key: K): V | undefined;
  /** Counts a look that found (`true`) or missed, for callers that look with `peek`. */
  count(found: boolean, times?: number): void;
  /** To take before reading elsewhere what `put` will keep. */
  mark(): number;
  /** Keeps `value`, unless something was forgotten since `mark`; until `until` when given (a batch read together). */
  put(key: K, value: V, mark?: number, until?: number): void;
  /** When values read now would run out: one moment for a batch read together, read again together. */
  untilFromNow(): number;
  /** A kept value changed in place: reads under way keep nothing. */
  changed(): void;
  forget(key: K): void;
  forgetWhere(drop: (value: V, key: K) => boolean): void;
  forgetAll(): void;
  /** The keys kept, oldest written first (past their time too); a key forgotten on the way is not visited. */
  keys(): IterableIterator<K>;
}

interface Entry<V> {
  value: V;
  until: number;
  weight: number;
}

/** Oldest entries past their time dropped per write: a few, so that a write stays cheap. */
const DROPPED_PER_PUT = 2;

export function keyedCache<K, V>(
  { name, ttlMs, max, weigh, load, holdsUntil, keeps }: KeyedCacheOptions<K, V>,
  clock: () => number = Date.now,
): KeyedCache<K, V> {
  // Map keeps insertion order: the first key is the oldest written, pushed out when full.
  const entries = new Map<K, Entry<V>>();
  const counts: CacheCounts = cacheCounts();
  let held = 0;
  let forgets = 0;
  /** Loads under way by key, with the mark they began at: a look after a forget starts its own. */
  const loading = new Map<K, { mark: number; value: Promise<V | undefined> }>();

  const weightOf = weigh ?? (() => 1);
  const fresh = (entry: Entry<V> | undefined, now: number) => (entry && entry.until > now ? entry : undefined);
  const untilFromNow = () => expiresAt(clock(), ttlMs);

  function drop(key: K): void {
    const entry = entries.get(key);
    if (!entry) return;
    held -= entry.weight;
    entries.delete(key);
  }

  function put(key: K, value: V, mark = forgets, until = untilFromNow()): void {
    if (ttlMs <= 0 || mark !== forgets || (keeps && !keeps(value))) return;
    const now = clock();
    // A crowd of readers come and gone gives its memory back as new entries come.
    let dropped = 0;
    for (const [oldest, entry] of entries) {
      if (dropped === DROPPED_PER_PUT || entry.until > now) break;
      drop(oldest);
      dropped += 1;
    }
    drop(key);
    const entry = { value, until: holdsUntil ? Math.min(until, holdsUntil(value)) : until, weight: weightOf(value) };
    held += entry.weight;
    entries.set(key, entry);
    for (const oldest of entries.keys()) {
      if (held <= max || oldest === key) break;
      drop(oldest);
      counts.evictions++;
    }
  }

  function forgotten(): void {
    forgets += 1;
    loading.clear();
  }

  return {
    name,
    enabled: ttlMs > 0,
    counts,
    size: () => entries.size,
    async get(key, loadOne) {
      const entry = fresh(entries.get(key), clock());
      if (entry) {
        counts.hits++;
        return entry.value;
      }
      counts.misses++;
      const underWay = loading.get(key);
      if (underWay && underWay.mark === forgets) return underWay.value;
      const mark = forgets;
      const value = (async () => {
        const read = loadOne ? await loadOne(key) : (await load!([key])).get(key);
        if (read !== undefined) put(key, read, mark);
        return read;
      })();
      loading.set(key, { mark, value });
      try {
        return await value;
      } finally {
        if (loading.get(key)?.value === value) loading.delete(key);
      }
    },
    async getMany(keys) {
      const now = clock();
      const found = new Map<K, V>();
      // Repeated keys are dropped without a Set of them all (an allocation every read): the found
      // are in `found`, and a Set of the missing is made at the first miss.
      let missingSet: Set<K> | undefined;
      for (const key of keys) {
        if (found.has(key)) continue;
        const entry = fresh(entries.get(key), now);
        if (entry) found.set(key, entry.value);
        else (missingSet ??= new Set()).add(key);
      }
      const missing = missingSet ? [...missingSet] : [];
      counts.hits += found.size;
      counts.misses += missing.length;
      if (missing.length === 0) return found;
      const mark = forgets;
      const read = await load!(missing);
      const until = untilFromNow();
      for (const [key, value] of read) {
        found.set(key, value);
        put(key, value, mark, until);
      }
      return found;
    },
    peek: (key) => fresh(entries.get(key), clock())?.value,
    peekStale: (key) => entries.get(key)?.value,
    count(found, times = 1) {
      if (found) counts.hits += times;
      else counts.misses += times;
    },
    mark: () => forgets,
    put,
    untilFromNow,
    changed: forgotten,
    forget(key) {
      forgotten();
      drop(key);
    },
    forgetWhere(which) {
      forgotten();
      for (const [key, entry] of entries) if (which(entry.value, key)) drop(key);
    },
    forgetAll() {
      forgotten();
      entries.clear();
      held = 0;
    },
    keys: () => entries.keys(),
  };
}
