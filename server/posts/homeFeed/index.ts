/**
 * The home feed: posts by the viewer and the people they follow, newest first. The module holds
 * the in-memory index of every post's creator (feedIndex.ts), the readers' follow lists
 * (followeeCache.ts) and the queries (queries.ts); the rest of the server sees only `HomeFeed`.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Bus } from '../../instance/bus';
import type { PostListRow } from '../repository';
import { type FeedIndex, type FeedIndexState, createFeedIndex } from './feedIndex';
import { followeeCache } from './followeeCache';
import { homeFeedQueries } from './queries';

export type HomeFeedState = FeedIndexState;

export interface HomeFeed {
  /** The rows of a page: at most `limit` posts below `cursor` (from the newest when null). */
  page(viewerId: string, cursor: string | null, limit: number): Promise<PostListRow[]>;
  /**
   * The ids of at most `limit` posts below `cursor` from the index, for the post cache to keep and
   * filter (posts deleted since may be among them); null while the index is off or loading.
   */
  ids(viewerId: string, cursor: string | null, limit: number): Promise<string[] | null>;
  /** A post was created (once committed). */
  postAdded(id: string, creatorId: string): void;
  /** A post was deleted (once committed). */
  postRemoved(id: string): void;
  /** The user followed or unfollowed someone (once committed). */
  followsChanged(userId: string): void;
  /** Loads the index in the background (the promise is for tests); the database answers meanwhile. */
  start(): Promise<void>;
  close(): Promise<void>;
  /** The index's state, for the health check: `ready` once pages are walked in memory. */
  readonly state: HomeFeedState;
}

export interface HomeFeedOptions {
  /** Above this many posts the index switches itself off (0: always off). */
  maxPosts: number;
  /** How stale other instances' posts and follows may be here (`HOME_FEED_SYNC_MS`). */
  syncMs: number;
  onOff?: (reason: string) => void;
  /** Where a page's posts are read by id (the post cache); the database by default. */
  postsByIds?: (viewerId: string, ids: string[]) => Promise<PostListRow[]>;
}

/** `index` is there for tests that watch the index itself. */
export function createHomeFeed(
  db: Kysely<Database>,
  options: HomeFeedOptions,
  index: FeedIndex = createFeedIndex(db, options),
): HomeFeed {
  const queries = homeFeedQueries(db);
  const followees = followeeCache(queries.followeeIds, { ttlMs: options.syncMs });
  const postsByIds = options.postsByIds ?? queries.postsByIds;

  return {
    async page(viewerId, cursor, limit) {
      await index.sync();
      // The one place the two meet: the index memoises its work per follow-list array (feedIndex.ts).
      const followeeIds = await followees.get(viewerId);
      const rows: PostListRow[] = [];
      let from = cursor;
      for (;;) {
        const ids = index.newest(viewerId, followeeIds, from, limit - rows.length);
        if (ids === null) return [...rows, ...(await queries.homeFeedPosts(viewerId, from, limit - rows.length))];
        if (ids.length === 0) return rows;
        const found = await postsByIds(viewerId, ids);
        // A suspended creator's posts stay in the index (for when they are back) but are skipped.
        const shown = found.filter((row) => row.creator_suspended_at === null);
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
    followsChanged: (userId) => followees.forget(userId),
    start: () => index.start(),
    close: () => index.close(),
    get state() {
      return index.state;
    },
  };
}

/** The bus channel of the home feed's changes. */
const HOME_FEED_CHANNEL = 'homeFeed';

type HomeFeedMessage = { added: string; creatorId: string } | { removed: string } | { followsOf: string };

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * `feed` whose changes go through `bus`: published once, applied by every instance's index and
 * follow lists (this one's at once, synchronously), so no instance waits for its `syncMs` read.
 * That read stays, for writes whose message was lost (Redis down, other tools).
 */
export function sharedHomeFeed(feed: HomeFeed, bus: Bus): HomeFeed {
  bus.subscribe(HOME_FEED_CHANNEL, (raw) => {
    if (typeof raw !== 'object' || raw === null) return;
    const message = raw as Partial<Record<'added' | 'creatorId' | 'removed' | 'followsOf', unknown>>;
    if (isText(message.added) && isText(message.creatorId)) feed.postAdded(message.added, message.creatorId);
    else if (isText(message.removed)) feed.postRemoved(message.removed);
    else if (isText(message.followsOf)) feed.followsChanged(message.followsOf);
  });
  const publish = (message: HomeFeedMessage) => bus.publish(HOME_FEED_CHANNEL, message);
  return {
    page: (viewerId, cursor, limit) => feed.page(viewerId, cursor, limit),
    ids: (viewerId, cursor, limit) => feed.ids(viewerId, cursor, limit),
    postAdded: (id, creatorId) => publish({ added: id, creatorId }),
    postRemoved: (id) => publish({ removed: id }),
    followsChanged: (userId) => publish({ followsOf: userId }),
    start: () => feed.start(),
    close: () => feed.close(),
    get state() {
      return feed.state;
    },
  };
}
