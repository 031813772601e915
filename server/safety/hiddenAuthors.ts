/**
 * Whose posts a reader may not see, per reader, kept in memory so that a list cached for every
 * reader (`posts/postCache.ts`) is filtered without a statement: the people blocked either way,
 * and those the reader mutes (the feeds only). A block or mute forgets the sets it changed at once,
 * on every instance (`cache/invalidation.ts`); `ttlMs` bounds changes no event carried.
 */
import { setBounded } from '../cache/bounded';
import { type CountedCache, cacheCounts } from '../cache/counts';
import { type Standing, mayShow } from './visibility';

export interface HiddenAuthors {
  /** Blocked by the reader or blocking them. */
  blocked: ReadonlySet<string>;
  muted: ReadonlySet<string>;
}

export interface HiddenAuthorsCache extends CountedCache {
  get(readerId: string): Promise<HiddenAuthors>;
  /** The user's blocks or mutes changed (either side of a block: call it for both). */
  forget(userId: string): void;
  /** Every reader's sets (`cache/outsideWrites.ts`). */
  forgetAll(): void;
}

/** One row per hidden person: `muted` 1 for a mute, 0 for a block either way. */
export type LoadHidden = (readerId: string) => Promise<{ id: string; muted: number | boolean }[]>;

export function hiddenAuthorsCache(
  load: LoadHidden,
  { ttlMs, max = 10_000 }: { ttlMs: number; max?: number },
): HiddenAuthorsCache {
  const known = new Map<string, HiddenAuthors & { until: number }>();
  let forgets = 0;
  const counts = cacheCounts();
  return {
    counts,
    size: () => known.size,
    async get(readerId) {
      const now = Date.now();
      const entry = known.get(readerId);
      if (entry && entry.until > now) {
        counts.hits++;
        return entry;
      }
      counts.misses++;
      const seen = forgets;
      const blocked = new Set<string>();
      const muted = new Set<string>();
      for (const row of await load(readerId)) (Number(row.muted) === 1 ? muted : blocked).add(row.id);
      const fresh = { blocked, muted, until: now + ttlMs };
      if (seen === forgets) setBounded(known, readerId, fresh, max, counts);
      return fresh;
    },
    forget(userId) {
      forgets++;
      known.delete(userId);
    },
    forgetAll() {
      forgets++;
      known.clear();
    },
  };
}

/** `mayShow` for a cached list: the cache keeps blocks either way as one set (both hide content alike). */
const standingIn = (hidden: HiddenAuthors, authorId: string, suspendedAt: string | null): Standing => {
  const blocked = hidden.blocked.has(authorId);
  return {
    suspended: suspendedAt !== null,
    viewerBlocksAuthor: blocked,
    authorBlocksViewer: blocked,
    viewerMutesAuthor: hidden.muted.has(authorId),
  };
};

/** What a reader may see of an author's content anywhere (`mayShow`, `content`). */
export const showsContent = (hidden: HiddenAuthors, authorId: string, suspendedAt: string | null) =>
  mayShow(standingIn(hidden, authorId, suspendedAt), 'content');

/** And in the feeds (home, everyone, tags): not someone the reader mutes either. */
export const showsInFeeds = (hidden: HiddenAuthors, authorId: string, suspendedAt: string | null) =>
  mayShow(standingIn(hidden, authorId, suspendedAt), 'feed');
