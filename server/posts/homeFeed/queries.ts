/** The home feed's queries: the database walk, the page's posts by id, and a reader's follow list. */
import { type RawBuilder, sql } from 'kysely';
import { type Dialect, dialectOf } from '../../db/database';
import { newestFirst } from '../../db/keyset';
import { prepared } from '../../db/prepared';
import type { Queryable } from '../../db/schema';
import { literalLimit } from '../../db/stablePlans';
import { shownFollowees } from '../../safety/visibility';
import { audienceAllows } from '../../domain/audience';
import { type PostListRow, postsByIds, selectPosts } from '../repository';

/** Most creators whose newest posts the home feed merges in one statement (SQLite's compound-select limit is 500). */
export const HOME_FEED_MERGE_MAX = 400;
/** How many of the newest posts (below the cursor) the home feed walks before it merges instead. */
export const HOME_FEED_WALK_WINDOW = 20_000;

/**
 * The newest `window` posts below the cursor, keeping the viewer's and their followees'. No outer
 * ORDER BY on SQLite: its co-routine already yields index order and stops at `limit` matches, and
 * one would make it read the whole window; PostgreSQL promises that order only with one.
 */
const walkNewest =
  (ordered: boolean) =>
  (db: Queryable, v: { viewerId: string; cursor: string | null; window: number; limit: number }) => {
    const recent = newestFirst(
      db.selectFrom('posts').select(['posts.id', 'posts.creator_id', 'posts.audience']),
      'posts.id',
      v.cursor,
      v.window,
    );
    const walk = db
      .selectFrom(recent.as('recent'))
      .select('recent.id')
      .where((eb) =>
        eb.or([
          eb('recent.creator_id', '=', v.viewerId),
          eb('recent.creator_id', 'in', shownFollowees(db, v.viewerId)),
        ]),
      )
      .where(audienceAllows(db, v.viewerId, 'home', 'recent'));
    return (ordered ? walk.orderBy('recent.id', 'desc') : walk).limit(literalLimit(v.limit));
  };

/** The walk and the posts it finds, in one statement. */
const walkedPosts = (ordered: boolean) =>
  prepared((db, v: { viewerId: string; cursor: string | null; window: number; limit: number }) =>
    selectPosts(db, v.viewerId, 'all').where('posts.id', 'in', walkNewest(ordered)(db, v)).orderBy('posts.id', 'desc'),
  );
const WALKED_POSTS: Record<Dialect, ReturnType<typeof walkedPosts>> = {
  sqlite: walkedPosts(false),
  postgres: walkedPosts(true),
};

/**
 * The home feed: posts by the people the viewer follows and by the viewer, newest first.
 *
 * First it walks the newest `walkWindow` posts below the cursor, keeping those of followed
 * creators: one fixed statement, fast whenever the followed people post at all recently, and as
 * fast on a deep page as on the first (keyset). If that window holds too few, it merges each
 * creator's newest posts below the window, each a range scan of (creator_id, id), so no query
 * ever reads or sorts every post of every followee.
 */
async function homeFeedPosts(
  db: Queryable,
  dialect: Dialect,
  viewerId: string,
  cursor: string | null,
  limit: number,
  window: number,
): Promise<PostListRow[]> {
  const walked = await WALKED_POSTS[dialect](db, { viewerId, cursor, window, limit });
  if (walked.length === limit) return walked;
  // Too few in the window: the feed goes on below its oldest post, if the table goes on at all.
  let bound = db.selectFrom('posts').select('id');
  if (cursor) bound = bound.where('id', '<', cursor);
  const lower =
    (
      await bound
        .orderBy('id', 'desc')
        .limit(1)
        .offset(window - 1)
        .executeTakeFirst()
    )?.id ?? null;
  if (lower === null) return walked;
  return [
    ...walked,
    ...(await postsByIds(db, viewerId, await mergedHeads(db, viewerId, lower, limit - walked.length))),
  ];
}

/** Below `cursor`: each followed creator's newest `limit` posts, merged. */
async function mergedHeads(db: Queryable, viewerId: string, cursor: string, limit: number): Promise<string[]> {
  const followees = await shownFollowees(db, viewerId).limit(HOME_FEED_MERGE_MAX).execute();
  if (followees.length >= HOME_FEED_MERGE_MAX) {
    // Following that many, the walk below is short: matches are everywhere.
    const rows = await db
      .selectFrom('posts')
      .select('posts.id')
      .where('posts.id', '<', cursor)
      .where((eb) =>
        eb.or([eb('posts.creator_id', '=', viewerId), eb('posts.creator_id', 'in', shownFollowees(db, viewerId))]),
      )
      .where(audienceAllows(db, viewerId, 'home'))
      .orderBy('posts.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }
  const creators = [viewerId, ...followees.map((f) => f.followee_id)];
  const heads = creators.map((creatorId, i) =>
    db
      .selectFrom(
        db
          .selectFrom('posts')
          .select('id')
          .where('creator_id', '=', creatorId)
          .where('id', '<', cursor)
          .where(audienceAllows(db, viewerId, 'home'))
          .orderBy('id', 'desc')
          .limit(limit)
          .as(`h${i}`),
      )
      .select('id'),
  );
  const merged = heads.slice(1).reduce((union, head) => union.unionAll(head), heads[0]);
  const rows = await db.selectFrom(merged.as('heads')).select('id').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => r.id);
}

/** The ids as one comma-joined string, one row instead of hundreds (docs/benchmarks/log/2026-11-22.md#the-home-feed-the-walk-moved-into-memory). */
const followeeList = (joined: RawBuilder<string | null>) =>
  prepared((db, v: { followerId: string }) =>
    db.selectFrom(shownFollowees(db, v.followerId).as('shown')).select(joined.as('ids')),
  );
const FOLLOWEE_LISTS: Record<Dialect, ReturnType<typeof followeeList>> = {
  sqlite: followeeList(sql`group_concat(shown.followee_id)`),
  postgres: followeeList(sql`string_agg(shown.followee_id, ',')`),
};

export interface HomeFeedQueries {
  /** The home feed from the database alone; `walkWindow` is there for tests. */
  homeFeedPosts(viewerId: string, cursor: string | null, limit: number, walkWindow?: number): Promise<PostListRow[]>;
  postsByIds(viewerId: string, ids: string[]): Promise<PostListRow[]>;
  /** Ids of the people a user follows whose posts their feed shows (`shownFollowees`). */
  followeeIds(followerId: string): Promise<string[]>;
}

/** The home feed's queries on one database handle; its dialect picks the statements once, here. */
export function homeFeedQueries(db: Queryable): HomeFeedQueries {
  const dialect = dialectOf(db);
  const followees = FOLLOWEE_LISTS[dialect];
  return {
    homeFeedPosts: (viewerId, cursor, limit, walkWindow = HOME_FEED_WALK_WINDOW) =>
      homeFeedPosts(db, dialect, viewerId, cursor, limit, walkWindow),
    postsByIds: (viewerId, ids) => postsByIds(db, viewerId, ids),
    async followeeIds(followerId) {
      const ids = (await followees(db, { followerId }))[0]?.ids;
      return ids ? ids.split(',') : [];
    },
  };
}
