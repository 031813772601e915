/**
 * Who a post or comment mentions: resolved once, when it is written, into `post_mentions` and
 * `comment_mentions`; the lists read the names back in the same statement as the rows.
 */
import { type RawBuilder, sql } from 'kysely';
import { dialectOf } from '../db/database';
import { blockedEitherWay } from '../safety/visibility';
import { bindQueries } from '../db/repository';
import { prepared } from '../db/prepared';
import type { Queryable } from '../db/schema';
import { stableInList } from '../db/stablePlans';
import { type Steps, ask, stepsOn } from '../db/steps';

export interface MentionedUser {
  id: string;
  username: string;
}

type UserColumn = 'users.username_lower' | 'users.id';

/**
 * The users whose `column` is one of `values` (unknown ones are simply absent), but for those with
 * a block between them and `authorId`: to the author they do not exist, so the text stays plain.
 */
const usersWhereQuery = (column: UserColumn) =>
  prepared((db, v: { values: string[]; authorId: string }) =>
    db
      .selectFrom('users')
      .select(['users.id', 'users.username'])
      .where(column, 'in', v.values)
      .where((eb) => eb.not(blockedEitherWay(db, v.authorId, 'users.id'))),
  );
const USERS_WHERE = {
  'users.username_lower': usersWhereQuery('users.username_lower'),
  'users.id': usersWhereQuery('users.id'),
};

function* usersWhereSteps(column: UserColumn, values: string[], authorId: string): Steps<MentionedUser[]> {
  if (values.length === 0) return [];
  return yield* ask(USERS_WHERE[column], { values: stableInList(values), authorId });
}

/** The users named by lower-cased names (a post's or comment's `@name`s), as a write's steps (`db/steps.ts`). */
export const usersNamedSteps = (keys: string[], authorId: string) =>
  usersWhereSteps('users.username_lower', keys, authorId);

/** The same by id (the local people a Note from elsewhere names in its `Mention` tags). */
export const usersWithIdsSteps = (ids: string[], authorId: string) => usersWhereSteps('users.id', ids, authorId);

/** Which of these lower-cased names are kept here (blocked or not): people elsewhere not to look up again. */
async function keptNames(db: Queryable, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db.selectFrom('users').select('username_lower').where('username_lower', 'in', keys).execute();
  return rows.map((row) => row.username_lower);
}

const usersNamed = (db: Queryable, keys: string[], authorId: string) => stepsOn(db, usersNamedSteps(keys, authorId));
const usersWithIds = (db: Queryable, ids: string[], authorId: string) => stepsOn(db, usersWithIdsSteps(ids, authorId));

async function postMentionIds(db: Queryable, postId: string): Promise<string[]> {
  const rows = await db.selectFrom('post_mentions').select('user_id').where('post_id', '=', postId).execute();
  return rows.map((row) => row.user_id);
}

const postMentions = prepared((db, v: { postId: string; userIds: string[] }) =>
  db
    .insertInto('post_mentions')
    .values(v.userIds.map((user_id) => ({ post_id: v.postId, user_id })))
    .onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing()),
);

/** A post's mentions linked (at most `MENTIONS_PER_MESSAGE_MAX`), as a step of a write. */
export function* addPostMentionsSteps(postId: string, userIds: string[]): Steps<void> {
  if (userIds.length > 0) yield* ask(postMentions, { postId, userIds });
}

const addPostMentions = (db: Queryable, postId: string, userIds: string[]) =>
  stepsOn(db, addPostMentionsSteps(postId, userIds));

async function removePostMentions(db: Queryable, postId: string, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.deleteFrom('post_mentions').where('post_id', '=', postId).where('user_id', 'in', userIds).execute();
}

const commentMentions = prepared((db, v: { commentId: string; userIds: string[] }) =>
  db.insertInto('comment_mentions').values(v.userIds.map((user_id) => ({ comment_id: v.commentId, user_id }))),
);

/** A comment's mentions linked (at most `MENTIONS_PER_MESSAGE_MAX`, so a handful of statements). */
export function* addCommentMentionsSteps(commentId: string, userIds: string[]): Steps<void> {
  if (userIds.length > 0) yield* ask(commentMentions, { commentId, userIds });
}

const addCommentMentions = (db: Queryable, commentId: string, userIds: string[]) =>
  stepsOn(db, addCommentMentionsSteps(commentId, userIds));

const queries = bindQueries({
  usersNamed,
  usersWithIds,
  keptNames,
  postMentionIds,
  addPostMentions,
  removePostMentions,
  addCommentMentions,
});

/** The queries on mentions, bound to a database or a transaction. */
export const mentionsRepository = (db: Queryable) => ({
  ...queries(db),
  /** Steps on the same handle or transaction (`names.ts` reads the mentioned people as steps). */
  run: <T>(steps: Steps<T>): Promise<T> => stepsOn(db, steps),
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
