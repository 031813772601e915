/** Queries on posts, tags and post reactions. Every list is keyset-paged on the UUIDv7 id. */
import type { Insertable } from 'kysely';
import type { Dialect } from '../db/database';
import { newestFirst } from '../db/keyset';
import { prepared } from '../db/prepared';
import type { PostsTable, Queryable } from '../db/schema';
import { literalLimit, unplanned } from '../db/stablePlans';

/**
 * Everything a Post response needs but its image's details (`imageInfos`, by `media_id`), joined
 * in one query; `viewerId` decides `my_reaction`.
 *
 * The viewer's reaction is a subquery, not a LEFT JOIN on `user_id = viewer`: a bound value in a
 * LEFT JOIN's ON clause makes SQLite re-prepare the statement on every run (`stablePlans.ts`).
 * Same index lookup per post.
 */
export function selectPosts(db: Queryable, viewerId: string) {
  return db.selectFrom('posts')
    .innerJoin('users', 'users.id', 'posts.creator_id')
    .select((eb) => [
      'posts.id', 'posts.message', 'posts.image', 'posts.tags', 'posts.likes_count',
      'posts.dislikes_count', 'posts.comments_count', 'posts.created_at', 'posts.updated_at',
      'posts.media_id', 'users.username as creator', 'users.avatar as creator_image',
      eb.selectFrom('post_reactions as mine').select('mine.kind')
        .whereRef('mine.post_id', '=', 'posts.id').where('mine.user_id', '=', viewerId).as('my_reaction'),
    ]);
}

export type PostListRow = Awaited<ReturnType<ReturnType<typeof selectPosts>['execute']>>[number];

const postsWithIds = prepared((db, v: { viewerId: string; ids: string[] }) =>
  selectPosts(db, v.viewerId).where('posts.id', 'in', v.ids).orderBy('posts.id', 'desc'));

export async function postsByIds(db: Queryable, viewerId: string, ids: string[]): Promise<PostListRow[]> {
  if (ids.length === 0) return [];
  return postsWithIds(db, { viewerId, ids });
}

const postWithId = prepared((db, v: { viewerId: string; id: string }) =>
  selectPosts(db, v.viewerId).where('posts.id', '=', unplanned(db, v.id)));

export async function findPost(db: Queryable, viewerId: string, id: string): Promise<PostListRow | undefined> {
  return (await postWithId(db, { viewerId, id }))[0];
}

export function findPostOwner(db: Queryable, id: string) {
  return db.selectFrom('posts').select(['id', 'creator_id']).where('id', '=', id).executeTakeFirst();
}

const newestPosts = prepared((db, v: { viewerId: string; cursor: string | null; limit: number }) =>
  newestFirst(selectPosts(db, v.viewerId), 'posts.id', v.cursor, v.limit));

/** Everyone's posts, newest first. */
export const allPosts = (db: Queryable, viewerId: string, cursor: string | null, limit: number) => newestPosts(db, { viewerId, cursor, limit });

/**
 * A profile's posts, by the creator's (lower-cased) username, in one statement (one round trip on
 * PostgreSQL) instead of a user lookup and then the posts. The creator is a scalar subquery, not a
 * filter on the joined users row: as a constant, both databases range-scan `(creator_id, id)`
 * newest first; filtered through the join, PostgreSQL read and sorted all of the creator's posts
 * (213 ms for D1's most prolific account).
 */
const newestPostsOf = prepared((db, v: { viewerId: string; usernameLower: string; cursor: string | null; limit: number }) => {
  const creator = db.selectFrom('users as creator').select('creator.id').where('creator.username_lower', '=', unplanned(db, v.usernameLower));
  return newestFirst(selectPosts(db, v.viewerId).where('posts.creator_id', '=', creator), 'posts.id', v.cursor, v.limit);
});

export const postsByCreator = (db: Queryable, viewerId: string, username: string, cursor: string | null, limit: number) =>
  newestPostsOf(db, { viewerId, usernameLower: username.toLowerCase(), cursor, limit });

/** Most creators whose newest posts the home feed merges in one statement (SQLite's compound-select limit is 500). */
export const HOME_FEED_MERGE_MAX = 400;
/** How many of the newest posts (below the cursor) the home feed walks before it merges instead. */
export const HOME_FEED_WALK_WINDOW = 20_000;

export interface HomeFeedOptions {
  dialect: Dialect;
  walkWindow?: number;
}

/**
 * The newest `window` posts below the cursor, in id order, keeping the viewer's and their
 * followees'. The inner LIMIT bounds the walk; the outer one stops it at `limit` matches. SQLite
 * runs the inner query as a co-routine in index order (the (id, creator_id) index alone), so it
 * reads only as far as the matches need; an outer ORDER BY would make it read the whole window.
 * PostgreSQL does not promise that order without one.
 */
const walkNewest = (ordered: boolean) => (db: Queryable, v: { viewerId: string; cursor: string | null; window: number; limit: number }) => {
  const recent = newestFirst(db.selectFrom('posts').select(['posts.id', 'posts.creator_id']), 'posts.id', v.cursor, v.window);
  const walk = db.selectFrom(recent.as('recent'))
    .select('recent.id')
    .where((eb) => eb.or([
      eb('recent.creator_id', '=', v.viewerId),
      eb('recent.creator_id', 'in', eb.selectFrom('follows').select('followee_id').where('follower_id', '=', v.viewerId)),
    ]));
  return (ordered ? walk.orderBy('recent.id', 'desc') : walk).limit(literalLimit(v.limit));
};

/** The walk and the posts it finds, in one statement. */
const walkedPosts = (ordered: boolean) => prepared((db, v: { viewerId: string; cursor: string | null; window: number; limit: number }) =>
  selectPosts(db, v.viewerId).where('posts.id', 'in', walkNewest(ordered)(db, v)).orderBy('posts.id', 'desc'));
const WALKED_POSTS: Record<Dialect, ReturnType<typeof walkedPosts>> = { sqlite: walkedPosts(false), postgres: walkedPosts(true) };

/**
 * The home feed: posts by the people the viewer follows and by the viewer, newest first.
 *
 * First it walks the newest `walkWindow` posts below the cursor, keeping those of followed
 * creators: one fixed statement, fast whenever the followed people post at all recently, and as
 * fast on a deep page as on the first (keyset). If that window holds too few, it merges each
 * creator's newest posts below the window, each a range scan of (creator_id, id), so no query
 * ever reads or sorts every post of every followee.
 */
export async function homeFeedPosts(db: Queryable, viewerId: string, cursor: string | null, limit: number, options: HomeFeedOptions): Promise<PostListRow[]> {
  const window = options.walkWindow ?? HOME_FEED_WALK_WINDOW;
  const walked = await WALKED_POSTS[options.dialect](db, { viewerId, cursor, window, limit });
  if (walked.length === limit) return walked;
  // Too few in the window: the feed goes on below its oldest post, if the table goes on at all.
  let bound = db.selectFrom('posts').select('id');
  if (cursor) bound = bound.where('id', '<', cursor);
  const lower = (await bound.orderBy('id', 'desc').limit(1).offset(window - 1).executeTakeFirst())?.id ?? null;
  if (lower === null) return walked;
  return [...walked, ...(await postsByIds(db, viewerId, await mergedHeads(db, viewerId, lower, limit - walked.length)))];
}

/** Below `cursor`: each followed creator's newest `limit` posts, merged. */
async function mergedHeads(db: Queryable, viewerId: string, cursor: string, limit: number): Promise<string[]> {
  const followees = await db.selectFrom('follows').select('followee_id').where('follower_id', '=', viewerId)
    .limit(HOME_FEED_MERGE_MAX).execute();
  if (followees.length >= HOME_FEED_MERGE_MAX) {
    // Following that many, the walk below is short: matches are everywhere.
    const rows = await db.selectFrom('posts').select('posts.id').where('posts.id', '<', cursor)
      .where((eb) => eb.or([
        eb('posts.creator_id', '=', viewerId),
        eb('posts.creator_id', 'in', eb.selectFrom('follows').select('followee_id').where('follower_id', '=', viewerId)),
      ]))
      .orderBy('posts.id', 'desc').limit(limit).execute();
    return rows.map((r) => r.id);
  }
  const creators = [viewerId, ...followees.map((f) => f.followee_id)];
  const heads = creators.map((creatorId, i) => db.selectFrom(
    db.selectFrom('posts').select('id').where('creator_id', '=', creatorId).where('id', '<', cursor)
      .orderBy('id', 'desc').limit(limit).as(`h${i}`),
  ).select('id'));
  const merged = heads.slice(1).reduce((union, head) => union.unionAll(head), heads[0]);
  const rows = await db.selectFrom(merged.as('heads')).select('id').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => r.id);
}

const newestWithTag = prepared((db, v: { tag: string; cursor: string | null; limit: number }) =>
  newestFirst(db.selectFrom('post_tags').select('post_id').where('tag', '=', unplanned(db, v.tag)), 'post_id', v.cursor, v.limit));

/**
 * One tag: a range scan of the (tag, post_id) primary key joined to its posts, in one statement.
 * The cursor bounds `posts.id` as well: PostgreSQL merge-joins the two id orders, and without it
 * walked the posts from the newest down to the cursor (16 ms on a deep page of D1 instead of 0.3).
 */
const newestPostsWithTag = prepared((db, v: { viewerId: string; tag: string; cursor: string | null; limit: number }) => {
  const withTag = selectPosts(db, v.viewerId).innerJoin('post_tags', 'post_tags.post_id', 'posts.id')
    .where('post_tags.tag', '=', unplanned(db, v.tag));
  return newestFirst(v.cursor ? withTag.where('posts.id', '<', v.cursor) : withTag, 'post_tags.post_id', v.cursor, v.limit);
});

/**
 * Posts carrying any of the (lower-cased) tags, newest first. Several tags: each tag's newest ids
 * are a range scan of the (tag, post_id) primary key, merged here, so no query sorts a whole tag.
 */
export async function taggedPosts(db: Queryable, viewerId: string, tags: string[], cursor: string | null, limit: number): Promise<PostListRow[]> {
  if (tags.length === 1) return newestPostsWithTag(db, { viewerId, tag: tags[0], cursor, limit });
  const perTag = await Promise.all(tags.map((tag) => newestWithTag(db, { tag, cursor, limit })));
  const ids = new Set<string>();
  for (const rows of perTag) for (const row of rows) ids.add(row.post_id);
  return postsByIds(db, viewerId, [...ids].sort().reverse().slice(0, limit));
}

export const insertPost = (db: Queryable, post: Insertable<PostsTable>) => db.insertInto('posts').values(post).execute();

export async function replaceTags(db: Queryable, postId: string, tags: string[]): Promise<void> {
  await db.deleteFrom('post_tags').where('post_id', '=', postId).execute();
  const keys = [...new Set(tags.map((t) => t.toLowerCase()))];
  if (keys.length > 0) await db.insertInto('post_tags').values(keys.map((tag) => ({ post_id: postId, tag }))).execute();
}

export const updatePost = (db: Queryable, id: string, changes: { message?: string; image?: string; media_id?: string | null; tags?: string; updated_at: string }) =>
  db.updateTable('posts').set(changes).where('id', '=', id).execute();

export const deletePost = (db: Queryable, id: string) => db.deleteFrom('posts').where('id', '=', id).execute();

