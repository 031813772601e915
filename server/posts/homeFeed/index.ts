/**
 * The home feed: posts by the viewer and the people they follow, newest first. The module holds
 * the in-memory index of every post's creator (feedIndex.ts), the readers' follow lists
 * (followeeCache.ts), the people's numbers both use (personNumbers.ts) and the queries (queries.ts);
 * the rest of the server sees only `HomeFeed`.
 */
import type { Kysely } from 'kysely';
import type { CacheRegistry } from '../../cache/registry';
import type { Database } from '../../db/schema';
import type { PostListRow } from '../repository';
import { type FeedIndex, type FeedIndexState, createFeedIndex } from './feedIndex';
import { followeeCache } from './followeeCache';
import { type PersonNumbers, listHolds, personNumbers } from './personNumbers';
import { homeFeedQueries } from './queries';
import { mostFollowed } from './mostFollowed';

export type HomeFeedState = FeedIndexState;

export interface HomeFeed {
  /**
   * The rows of a page: at most `limit` posts below `cursor` (from the newest when null) that
   * `admits` (the reader's audiences, `posts/audience.ts`; the database's own walk asks it in SQL).
   */
  page(
    viewerId: string,
    cursor: string | null,
    limit: number,
    admits: (row: PostListRow) => boolean,
  ): Promise<PostListRow[]>;
  /**
   * The ids of at most `limit` posts below `cursor` from the index, for the post cache to keep and
   * filter (posts deleted since may be among them); null while the index is off or loading.
   */
  ids(viewerId: string, cursor: string | null, limit: number): Promise<string[] | null>;
  /** A post was created (once committed). */
  postAdded(id: string, creatorId: string): void;
  /** A post was deleted (once committed). */
  postRemoved(id: string): void;
  /**
   * Whether a reader's home feed shows a new post of `creatorId` (their own, or someone they follow
   * and have not muted), as far as the follow lists kept here tell; undefined when not kept.
   */
  showsNewPostOf(creatorId: string): (readerId: string) => boolean | undefined;
  /** Whether the reader's home feed shows `creatorId`'s posts: their own, or someone they follow (the streams). */
  shows(readerId: string, creatorId: string): Promise<boolean>;
  /** `shows` for many creators: the reader's kept follow list, asked without awaiting (a page's rows). */
  showsOf(readerId: string): Promise<(creatorId: string) => boolean>;
  /**
   * People followed by those the reader follows (of their first `followeesAsked` followees), most
   * followed first, at most `want`; not the reader, not those they follow (`mostFollowed.ts`).
   */
  followedByFollowees(readerId: string, followeesAsked: number, want: number): Promise<string[]>;
  /** Whom the user's feed shows changed: a follow, an unfollow, a block, an unmute (once committed). */
  followsChanged(userId: string): void;
  /** Whom many feeds show changed: someone came back from a suspension. */
  everyonesFollowsChanged(): void;
  /** Loads the index in the background (the promise is for tests); the database answers meanwhile. */
  start(): Promise<void>;
  close(): Promise<void>;
  /** The index's state, for the health check: `ready` once pages are walked in memory. */
  readonly state: HomeFeedState;
}

export interface HomeFeedOptions {
  /** Where its follow lists are made; when every cache forgets, the index reads what it missed. */
  caches: CacheRegistry;
  /** Above this many posts the index switches itself off (0: always off). */
  maxPosts: number;
  /** How stale other instances' posts and follows may be here (`HOME_FEED_SYNC_MS`). */
  syncMs: number;
  onOff?: (reason: string) => void;
  /** Where a page's posts are read by id (the post cache); the database by default. */
  postsByIds?: (viewerId: string, ids: string[]) => Promise<PostListRow[]>;
}

/** `index` (over `numbers`) is there for tests that watch the index itself. */
export function createHomeFeed(
  db: Kysely<Database>,
  options: HomeFeedOptions,
  numbers: PersonNumbers = personNumbers(),
  index: FeedIndex = createFeedIndex(db, options, numbers),
): HomeFeed {
  const queries = homeFeedQueries(db);
  const followees = followeeCache(options.caches, queries.followeeIds, numbers, { ttlMs: options.syncMs });
  // Posts or follows may have been written where no event tells: read them at the next page.
  options.caches.onForgetEverything('home_feed_index', () => index.syncSoon());
  const postsByIds = options.postsByIds ?? queries.postsByIds;

  return {
    async page(viewerId, cursor, limit, admits) {
      await index.sync();
      const followed = await followees.get(viewerId);
      const rows: PostListRow[] = [];
      let from = cursor;
      for (;;) {
        const ids = index.newest(viewerId, followed, from, limit - rows.length);
        if (ids === null) return [...rows, ...(await queries.homeFeedPosts(viewerId, from, limit - rows.length))];
        if (ids.length === 0) return rows;
        const found = await postsByIds(viewerId, ids);
        // A suspended creator's posts stay in the index (for when they are back) but are skipped.
        const shown = found.filter((row) => row.creator_suspended_at === null && admits(row));
        rows.push(...shown);
        if (shown.length === ids.length) return rows;
        // Deleted through another instance since the index saw them: drop them and walk on.
        const present = new Set(found.map((row) => row.id));
        for (const id of ids) if (!present.has(id)) index.removed(id);
        from = ids[ids.length - 1];
      }
    },
    async ids(viewerId, cursor, limit) {
      await index.sync();
      return index.newest(viewerId, await followees.get(viewerId), cursor, limit);
    },
    postAdded: (id, creatorId) => index.added(id, creatorId),
    postRemoved: (id) => index.removed(id),
    showsNewPostOf(creatorId) {
      const follows = followees.followsOf(creatorId);
      return (readerId) => readerId === creatorId || follows(readerId);
    },
    async shows(readerId, creatorId) {
      if (readerId === creatorId) return true;
      // Every open stream asks this of each new post: the kept list's Set when there is one.
      return (
        followees.follows(readerId, creatorId) ?? listHolds(await followees.get(readerId), numbers.known(creatorId))
      );
    },
    async showsOf(readerId) {
      const followed = await followees.get(readerId);
      return (creatorId) => creatorId === readerId || listHolds(followed, numbers.known(creatorId));
    },
    async followedByFollowees(readerId, followeesAsked, want) {
      const own = await followees.get(readerId);
      const asked = Array.from(own.subarray(0, followeesAsked), (n) => numbers.idOf(n));
      const lists = await followees.getMany(asked);
      const me = numbers.known(readerId);
      // Numbers given while the lists loaded are counted too: the size is read after.
      return mostFollowed(lists.values(), numbers.size, (n) => n === me || listHolds(own, n), numbers.idOf, want);
    },
    followsChanged: (userId) => followees.forget(userId),
    everyonesFollowsChanged: () => followees.forgetAll(),
    start: () => index.start(),
    close: () => index.close(),
    get state() {
      return index.state;
    },
  };
}
