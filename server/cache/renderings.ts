/**
 * What is made of one shared object and is the same for every reader (a post row version's Post,
 * its JSON, its client-API status; an author's Account), made once and held beside the object for
 * as long as it lives. Shared rows are never changed (a change is a new object, `sharedRows.ts`), so
 * nothing here can go stale and no key lists the fields it depends on. Made through `registry.ts`,
 * so `/metrics` counts it and `forgetEverything` reaches it.
 */
import { type CacheCounts, type CountedCache, cacheCounts } from './counts';

export interface Renderings<S extends object, V> extends CountedCache {
  readonly name: string;
  /** What was made of `source`, else made now by `render` and held. */
  of(source: S, render: (source: S) => V): V;
  /** What was made of `source`, if anything (counted as a hit or a miss). */
  get(source: S): V | undefined;
  /** The same without a count. */
  peek(source: S): V | undefined;
  /** Holds `value` as what is made of `source`. */
  keep(source: S, value: V): V;
  forgetAll(): void;
}

export function renderings<S extends object, V>(name: string): Renderings<S, V> {
  let made = new WeakMap<S, V>();
  const counts: CacheCounts = cacheCounts();
  // Made since the last `forgetAll`: an upper bound of what is held (a collected source takes its own along).
  let kept = 0;
  const keep = (source: S, value: V) => {
    made.set(source, value);
    kept++;
    return value;
  };
  return {
    name,
    counts,
    size: () => kept,
    of(source, render) {
      const known = made.get(source);
      if (known !== undefined) {
        counts.hits++;
        return known;
      }
      counts.misses++;
      return keep(source, render(source));
    },
    get(source) {
      const known = made.get(source);
      if (known === undefined) counts.misses++;
      else counts.hits++;
      return known;
    },
    peek: (source) => made.get(source),
    keep,
    forgetAll() {
      made = new WeakMap();
      kept = 0;
    },
  };
}
