/**
 * Who each recent home-feed reader follows, kept for a moment: a reader scrolling asks page after
 * page. Follows and unfollows forget the reader's entry at once (on every instance when the bus
 * carries the events, `cache/invalidation.ts`); otherwise those made elsewhere show after `ttlMs`.
 * `get` hands back the same array while it keeps an entry (the feed index relies on it, index.ts).
 */
import { setBounded } from '../../cache/bounded';
import { expiresAt } from '../../cache/expiry';
import { type CountedCache, cacheCounts } from '../../cache/counts';

export interface FolloweeCache extends CountedCache {
  get(userId: string): Promise<string[]>;
  /**
   * Whether the user follows `followeeId`, as kept now, without reading: undefined when not kept
   * (or past its time). A new post asks this of every kept home page: a Set, not a scan of the list.
   */
  follows(userId: string, followeeId: string): boolean | undefined;
  forget(userId: string): void;
  /** Every entry: whom many lists leave out changed (an unsuspension). */
  forgetAll(): void;
}

interface Entry {
  ids: string[];
  /** `ids` as a Set, made at the first `follows`. */
  set?: Set<string>;
  until: number;
}

export function followeeCache(
  load: (userId: string) => Promise<string[]>,
  { ttlMs, max = 1_000 }: { ttlMs: number; max?: number },
): FolloweeCache {
  // Map keeps insertion order: the first key is the oldest entry, evicted when full.
  const entries = new Map<string, Entry>();
  // A forget arriving while a list loads may mean the load read it before the change: not kept then.
  let forgets = 0;
  const counts = cacheCounts();
  return {
    counts,
    size: () => entries.size,
    async get(userId) {
      const now = Date.now();
      const entry = entries.get(userId);
      if (entry && entry.until > now) {
        counts.hits++;
        return entry.ids;
      }
      counts.misses++;
      const forgetsSeen = forgets;
      const ids = await load(userId);
      if (ttlMs > 0 && forgetsSeen === forgets) {
        entries.delete(userId);
        setBounded(entries, userId, { ids, until: expiresAt(now, ttlMs) }, max, counts);
      }
      return ids;
    },
    follows(userId, followeeId) {
      const entry = entries.get(userId);
      if (!entry || entry.until <= Date.now()) return undefined;
      entry.set ??= new Set(entry.ids);
      return entry.set.has(followeeId);
    },
    forget(userId) {
      forgets += 1;
      entries.delete(userId);
    },
    forgetAll() {
      forgets += 1;
      entries.clear();
    },
  };
}
