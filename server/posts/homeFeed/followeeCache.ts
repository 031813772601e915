/**
 * Who each recent home-feed reader follows, kept for a moment: a reader scrolling asks page after
 * page. Follows and unfollows forget the reader's entry at once (on every instance when the bus
 * carries the events, `cache/invalidation.ts`); otherwise those made elsewhere show after `ttlMs`.
 * `get` hands back the same array while it keeps an entry (the feed index relies on it, index.ts).
 */
export interface FolloweeCache {
  get(userId: string): Promise<string[]>;
  forget(userId: string): void;
  /** Every entry: whom many lists leave out changed (an unsuspension). */
  forgetAll(): void;
}

interface Entry {
  ids: string[];
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
  return {
    async get(userId) {
      const now = Date.now();
      const entry = entries.get(userId);
      if (entry && entry.until > now) return entry.ids;
      const forgetsSeen = forgets;
      const ids = await load(userId);
      if (ttlMs > 0 && forgetsSeen === forgets) {
        entries.delete(userId);
        if (entries.size >= max) entries.delete(entries.keys().next().value!);
        entries.set(userId, { ids, until: now + ttlMs });
      }
      return ids;
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
