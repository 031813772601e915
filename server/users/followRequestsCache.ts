/**
 * Each person's waiting follow requests (issue 70), kept by followee: the requesters' ids. It
 * answers the badge's count, a profile's "Requested" and the client API's `requested` and
 * `requested_by` without a statement. The events that add or end a request forget the followee's
 * entry (`invalidation/table.ts`).
 */
import type { CacheRegistry } from '../cache/registry';

export interface FollowRequestsCache {
  /** The ids of the people waiting for `followeeId`'s answer. */
  waitingFor(followeeId: string): Promise<ReadonlySet<string>>;
  forget(followeeId: string): void;
  forgetAll(): void;
}

export function followRequestsCache(
  caches: CacheRegistry,
  read: (followeeIds: string[]) => Promise<{ follower_id: string; followee_id: string }[]>,
  { ttlMs, max = 10_000 }: { ttlMs: number; max?: number },
): FollowRequestsCache {
  const byFollowee = caches.keyed<string, ReadonlySet<string>>({
    name: 'follow_requests',
    ttlMs,
    max,
    async load(ids) {
      const found = new Map<string, Set<string>>(ids.map((id) => [id, new Set<string>()]));
      for (const row of await read(ids)) found.get(row.followee_id)?.add(row.follower_id);
      return found;
    },
  });
  return {
    async waitingFor(followeeId) {
      return (await byFollowee.get(followeeId)) ?? new Set();
    },
    forget: (followeeId) => byFollowee.forget(followeeId),
    forgetAll: () => byFollowee.forgetAll(),
  };
}
