/**
 * Who each recent home-feed reader follows, kept for a moment: a reader scrolling asks page after
 * page. A list is the followees' numbers (`personNumbers.ts`), 4 bytes each, so there is room for
 * as many readers as the sessions'. Follows and unfollows forget the reader's entry at once (on
 * every instance when the bus carries the events, `invalidation/table.ts`); otherwise those made
 * elsewhere show after `ttlMs`.
 */
import type { CountedCache } from '../../cache/counts';
import type { CacheRegistry } from '../../cache/registry';
import { type PersonNumbers, listHolds } from './personNumbers';

export interface FolloweeCache extends CountedCache {
  /** The user's followees' numbers, ascending. */
  get(userId: string): Promise<Int32Array>;
  /** `get` for many users: the lists of the people a reader follows, for Explore's suggestions (`mostFollowed.ts`). */
  getMany(userIds: readonly string[]): Promise<Map<string, Int32Array>>;
  /**
   * Whether the user follows `followeeId`, as kept now, without reading: undefined when not kept
   * (or past its time).
   */
  follows(userId: string, followeeId: string): boolean | undefined;
  /**
   * `follows` for one followee and many users: a new post asks it of every kept home page, so the
   * followee's number is found once.
   */
  followsOf(followeeId: string): (userId: string) => boolean | undefined;
  forget(userId: string): void;
  /** Every entry: whom many lists leave out changed (an unsuspension). */
  forgetAll(): void;
}

export function followeeCache(
  caches: CacheRegistry,
  load: (userId: string) => Promise<string[]>,
  numbers: PersonNumbers,
  // Readers' lists and, for Explore's suggestions, the lists of the people they follow: 4 bytes a
  // followee, ~1 kB a list of 200, ~20 MB at most.
  { ttlMs, max = 20_000 }: { ttlMs: number; max?: number },
): FolloweeCache {
  const lists = caches.keyed<string, Int32Array>({
    name: 'followees',
    ttlMs,
    max,
    async load(userIds) {
      const found = new Map<string, Int32Array>();
      for (const userId of userIds) found.set(userId, numbers.listOf(await load(userId)));
      return found;
    },
  });
  function followsOf(followeeId: string) {
    const followee = numbers.known(followeeId);
    return (userId: string) => {
      const followees = lists.peek(userId);
      return followees && listHolds(followees, followee);
    };
  }
  return {
    counts: lists.counts,
    size: lists.size,
    get: async (userId) => (await lists.get(userId))!,
    getMany: (userIds) => lists.getMany(userIds),
    follows: (userId, followeeId) => followsOf(followeeId)(userId),
    followsOf,
    forget: (userId) => lists.forget(userId),
    forgetAll: () => lists.forgetAll(),
  };
}
