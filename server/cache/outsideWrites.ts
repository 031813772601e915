/**
 * Writes no event tells of. On SQLite another process may commit to the same file (a tool such as
 * `npm run admin` or `check:counters`, a second instance): SQLite's `data_version` says so for the
 * price of one pragma, so a request first asks, and every cache here forgets everything when it
 * changed. The caches then need no short clock on SQLite (`config.ts`: its longer defaults).
 * PostgreSQL gives no such signal: there the caches keep their times (docs/api-decisions.md,
 * "Shared rows"). The bus's rejoin after Redis was away starts them over the same way (context.ts).
 */
import type { SessionCache } from '../auth/sessionCache';
import type { DomainBlocksCache } from '../federation/domainBlocks';
import type { CommentsByPersonCache } from '../posts/commentsByPerson';
import type { HomeFeed } from '../posts/homeFeed';
import type { HiddenAuthorsCache } from '../safety/hiddenAuthors';
import type { AuthorCache } from '../users/authorCache';
import type { SharedRows } from './sharedRows';

export interface ForgettingCaches {
  posts: Pick<SharedRows<never>, 'forgetAll'>;
  comments: Pick<SharedRows<never>, 'forgetAll'>;
  hiddenPeople: Pick<HiddenAuthorsCache, 'forgetAll'>;
  commentsByPerson: Pick<CommentsByPersonCache, 'forgetAll'>;
  homeFeed: Pick<HomeFeed, 'writtenElsewhere'>;
  sessions: Pick<SessionCache, 'forgetAll'>;
  authors: Pick<AuthorCache, 'forgetAll'>;
  domainBlocks: DomainBlocksCache;
}

/** Every cache starts over: anything may have changed (another process's commit, missed bus messages). */
export function forgetEverything(caches: ForgettingCaches): void {
  caches.posts.forgetAll();
  caches.comments.forgetAll();
  caches.hiddenPeople.forgetAll();
  caches.commentsByPerson.forgetAll();
  caches.homeFeed.writtenElsewhere();
  caches.sessions.forgetAll();
  caches.authors.forgetAll();
  caches.domainBlocks.forget();
}

/**
 * A check to run before each request: the caches forget everything if another process committed.
 * The pragma is asked at most once per `intervalMs`: it opens a read transaction and takes file locks,
 * a real share of a request answered from memory (docs/benchmarks/log/2026-11-27.md, "A pragma, headers and random
 * bytes fewer per request"), so a commit elsewhere is noticed within that interval.
 */
export function forgetOnOutsideWrites(
  committedElsewhere: (() => boolean) | undefined,
  caches: ForgettingCaches,
  intervalMs: number,
  clock: () => number = performance.now.bind(performance),
) {
  if (!committedElsewhere) return () => {};
  let nextCheck = -Infinity;
  return () => {
    const now = clock();
    if (now < nextCheck) return;
    nextCheck = now + intervalMs;
    if (committedElsewhere()) forgetEverything(caches);
  };
}
