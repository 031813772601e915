/**
 * Who each recent home-feed reader follows, kept for a moment.
 *
 * Reading a follow list (hundreds of ids) is the largest part of a home feed page once the feed's
 * walk is in memory, and a reader scrolling asks for it page after page. Follows and unfollows made
 * through this process forget the reader's entry at once; one made through another instance shows
 * in this process's home feeds after `ttlMs` at most, as posts from other instances do
 * (`HOME_FEED_SYNC_MS`). Keeping the same string objects also keeps their hashes, which makes the
 * feed index's lookups of them cheap.
 */
export interface FolloweeCache {
  get(userId: string): Promise<string[]>;
  forget(userId: string): void;
}

interface Entry {
  ids: string[];
  until: number;
}

export function followeeCache(load: (userId: string) => Promise<string[]>, { ttlMs, max = 1_000 }: { ttlMs: number; max?: number }): FolloweeCache {
  // Map keeps insertion order: the first key is the oldest entry, evicted when full.
  const entries = new Map<string, Entry>();
  return {
    async get(userId) {
      const now = Date.now();
      const entry = entries.get(userId);
      if (entry && entry.until > now) return entry.ids;
      const ids = await load(userId);
      if (ttlMs > 0) {
        entries.delete(userId);
        if (entries.size >= max) entries.delete(entries.keys().next().value!);
        entries.set(userId, { ids, until: now + ttlMs });
      }
      return ids;
    },
    forget(userId) {
      entries.delete(userId);
    },
  };
}
