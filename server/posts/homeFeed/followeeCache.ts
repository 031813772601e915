/**
 * Who each recent home-feed reader follows, kept for a moment: a reader scrolling asks page after
 * page. A list is the followees' numbers (`personNumbers.ts`), 4 bytes each, so there is room for
 * as many readers as the sessions'. Follows and unfollows forget the reader's entry at once (on
 * every instance when the bus carries the events, `cache/invalidation.ts`); otherwise those made
 * elsewhere show after `ttlMs`.
 */
import { setFresh } from '../../cache/bounded';
import { type CountedCache, cacheCounts } from '../../cache/counts';
import { expiresAt } from '../../cache/expiry';
import { type PersonNumbers, listHolds } from './personNumbers';

export interface FolloweeCache extends CountedCache {
  /** The user's followees' numbers, ascending. */
  get(userId: string): Promise<Int32Array>;
  /**
   * Whether the user follows `followeeId`, as kept now, without reading: undefined when not kept
   * (or past its time).
   */
  follows(userId: string, followeeId: string): boolean | undefined;
  /**
   * `follows` for one followee and many users: a new post asks it of every kept home page, so the
   * followee's number and the time are found once.
   */
  followsOf(followeeId: string): (userId: string) => boolean | undefined;
  forget(userId: string): void;
  /** Every entry: whom many lists leave out changed (an unsuspension). */
  forgetAll(): void;
}

interface Entry {
  followees: Int32Array;
  until: number;
}

export function followeeCache(
  load: (userId: string) => Promise<string[]>,
  numbers: PersonNumbers,
  { ttlMs, max = 10_000 }: { ttlMs: number; max?: number },
): FolloweeCache {
  // Map keeps insertion order: the first key is the oldest entry, evicted when full.
  const entries = new Map<string, Entry>();
  // A forget arriving while a list loads may mean the load read it before the change: not kept then.
  let forgets = 0;
  const counts = cacheCounts();
  function followsOf(followeeId: string) {
    const followee = numbers.known(followeeId);
    const now = Date.now();
    return (userId: string) => {
      const entry = entries.get(userId);
      if (!entry || entry.until <= now) return undefined;
      return listHolds(entry.followees, followee);
    };
  }
  return {
    counts,
    size: () => entries.size,
    async get(userId) {
      const now = Date.now();
      const entry = entries.get(userId);
      if (entry && entry.until > now) {
        counts.hits++;
        return entry.followees;
      }
      counts.misses++;
      const forgetsSeen = forgets;
      const followees = numbers.listOf(await load(userId));
      if (ttlMs > 0 && forgetsSeen === forgets) {
        entries.delete(userId);
        setFresh(entries, userId, { followees, until: expiresAt(now, ttlMs) }, max, now, counts);
      }
      return followees;
    },
    follows: (userId, followeeId) => followsOf(followeeId)(userId),
    followsOf,
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
