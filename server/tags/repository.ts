/** Followed tags' rows (issue 73): each person's own, and the newest post ids with a tag. */
import { bindQueries } from '../db/repository';
import type { Queryable } from '../db/schema';
import { newestFirst } from '../db/keyset';
import { literalLimit } from '../db/stablePlans';

export interface FollowedTagRow {
  id: string;
  tag: string;
  name: string;
  created_at: string;
}

/**
 * Follows the tag (its key) for the user, once: the first follow's time and spelling stay. False
 * when the user follows `max` tags already and not this one (nothing written).
 */
async function followTag(
  db: Queryable,
  v: { id: string; userId: string; tag: string; name: string; at: string; max: number },
): Promise<boolean> {
  const rows = await db
    .selectFrom('followed_tags')
    .select('tag')
    .where('user_id', '=', v.userId)
    .limit(literalLimit(v.max + 1))
    .execute();
  if (rows.some((r) => r.tag === v.tag)) return true;
  if (rows.length >= v.max) return false;
  await db
    .insertInto('followed_tags')
    .values({ id: v.id, user_id: v.userId, tag: v.tag, name: v.name, created_at: v.at })
    .onConflict((oc) => oc.columns(['user_id', 'tag']).doNothing())
    .execute();
  return true;
}

async function unfollowTag(db: Queryable, userId: string, tag: string): Promise<void> {
  await db.deleteFrom('followed_tags').where('user_id', '=', userId).where('tag', '=', tag).execute();
}

const followedColumns = ['id', 'tag', 'name', 'created_at'] as const;

/** Every tag the user follows (at most the limit's), newest followed first. */
async function followedTagsOf(db: Queryable, userId: string): Promise<FollowedTagRow[]> {
  return db
    .selectFrom('followed_tags')
    .select(followedColumns)
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
}

/** The user's followed tags below `cursor` (a follow's id), newest followed first, at most `limit`. */
async function followedTagsPage(
  db: Queryable,
  userId: string,
  cursor: string | null,
  limit: number,
): Promise<FollowedTagRow[]> {
  const query = db.selectFrom('followed_tags').select(followedColumns).where('user_id', '=', userId);
  return newestFirst(query, 'id', cursor, limit).execute();
}

async function followsTag(db: Queryable, userId: string, tag: string): Promise<boolean> {
  const row = await db
    .selectFrom('followed_tags')
    .select('tag')
    .where('user_id', '=', userId)
    .where('tag', '=', tag)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The newest `limit` post ids carrying the tag (its key), newest first, unfiltered: a range scan of
 * the (tag, post_id) primary key. Who may see each is the reader's filter's to say.
 */
async function newestIdsWithTag(db: Queryable, tag: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('post_tags')
    .select('post_id')
    .where('tag', '=', tag)
    .orderBy('post_id', 'desc')
    .limit(literalLimit(limit))
    .execute();
  return rows.map((r) => r.post_id);
}

export const tagsRepository = bindQueries({
  followTag,
  unfollowTag,
  followedTagsOf,
  followedTagsPage,
  followsTag,
  newestIdsWithTag,
});

export type TagsRepository = ReturnType<typeof tagsRepository>;
