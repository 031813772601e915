/**
 * Who a post or comment mentions: resolved once, when it is written, into `post_mentions` and
 * `comment_mentions`; the lists read the names back in the same statement as the rows.
 */
import { type RawBuilder, sql } from 'kysely';
import { dialectOf } from '../db/database';
import { blockedEitherWay } from '../safety/visibility';
import { bindQueries } from '../db/repository';
import type { Queryable } from '../db/schema';

export interface MentionedUser {
  id: string;
  username: string;
}

/**
 * The users whose `column` is one of `values` (unknown ones are simply absent), but for those with
 * a block between them and `authorId`: to the author they do not exist, so the text stays plain.
 */
function usersWhere(
  db: Queryable,
  column: 'users.username_lower' | 'users.id',
  values: string[],
  authorId: string,
): Promise<MentionedUser[]> {
  if (values.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .select(['users.id', 'users.username'])
    .where(column, 'in', values)
    .where((eb) => eb.not(blockedEitherWay(db, authorId, 'users.id')))
    .execute();
}

/** The users named by lower-cased names (a post's or comment's `@name`s). */
const usersNamed = (db: Queryable, keys: string[], authorId: string) =>
  usersWhere(db, 'users.username_lower', keys, authorId);

/** The same by id (the local people a Note from elsewhere names in its `Mention` tags). */
const usersWithIds = (db: Queryable, ids: string[], authorId: string) => usersWhere(db, 'users.id', ids, authorId);

async function postMentionIds(db: Queryable, postId: string): Promise<string[]> {
  const rows = await db.selectFrom('post_mentions').select('user_id').where('post_id', '=', postId).execute();
  return rows.map((row) => row.user_id);
}

async function addPostMentions(db: Queryable, postId: string, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('post_mentions')
    .values(userIds.map((user_id) => ({ post_id: postId, user_id })))
    .onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing())
    .execute();
}

async function removePostMentions(db: Queryable, postId: string, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.deleteFrom('post_mentions').where('post_id', '=', postId).where('user_id', 'in', userIds).execute();
}

async function addCommentMentions(db: Queryable, commentId: string, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('comment_mentions')
    .values(userIds.map((user_id) => ({ comment_id: commentId, user_id })))
    .execute();
}

/** The queries on mentions, bound to a database or a transaction. */
export const mentionsRepository = bindQueries({
  usersNamed,
  usersWithIds,
  postMentionIds,
  addPostMentions,
  removePostMentions,
  addCommentMentions,
});

export type MentionsRepository = ReturnType<typeof mentionsRepository>;

/**
 * The mentioned usernames of the row in `posts` or `comments`, comma-joined (a username has no
 * comma), null when none: a subquery on the mentions table's primary key, so a list gains no
 * statement and no row-by-row round trip.
 */
export function mentionedNames(db: Queryable, of: 'posts' | 'comments'): RawBuilder<string | null> {
  const join = dialectOf(db) === 'postgres' ? sql`string_agg(u.username, ',')` : sql`group_concat(u.username)`;
  return of === 'posts'
    ? sql<
        string | null
      >`(SELECT ${join} FROM post_mentions m JOIN users u ON u.id = m.user_id WHERE m.post_id = posts.id)`
    : sql<
        string | null
      >`(SELECT ${join} FROM comment_mentions m JOIN users u ON u.id = m.user_id WHERE m.comment_id = comments.id)`;
}
