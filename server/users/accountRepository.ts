/**
 * Queries over everything one account owns: the pages its data export reads, and what deleting it
 * must put right on other people's rows first. No rules.
 */
import { sql } from 'kysely';
import { dialectOf } from '../db/database';
import { bindQueries } from '../db/repository';
import type { Queryable } from '../db/schema';
import { isUnread } from '../notifications/repository';

// Export pages: keyset by the table's own key, oldest first, so a huge account is read in slices.

const postsPage = (db: Queryable, userId: string, after: string, limit: number) =>
  db
    .selectFrom('posts')
    .select([
      'id',
      'message',
      'image',
      'tags',
      'audience',
      'media_id',
      'likes_count',
      'dislikes_count',
      'comments_count',
      'created_at',
      'updated_at',
      'alt',
      'sensitive',
      'spoiler',
      'crop',
    ])
    .where('creator_id', '=', userId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();

/** The photos of these posts (issue 71), each post's in order. */
async function photosOfPosts(db: Queryable, postIds: string[]) {
  const byPost = new Map<string, { image: string; alt: string; crop: string }[]>();
  if (postIds.length === 0) return byPost;
  const rows = await db
    .selectFrom('post_images')
    .select(['post_id', 'image', 'alt', 'crop'])
    .where('post_id', 'in', postIds)
    .orderBy('post_id')
    .orderBy('position')
    .execute();
  for (const { post_id: postId, ...photo } of rows) {
    const list = byPost.get(postId);
    if (list) list.push(photo);
    else byPost.set(postId, [photo]);
  }
  return byPost;
}

const commentsPage = (db: Queryable, userId: string, after: string, limit: number) =>
  db
    .selectFrom('comments')
    .select(['id', 'post_id', 'message', 'likes_count', 'dislikes_count', 'created_at'])
    .where('user_id', '=', userId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();

const postReactionsPage = (db: Queryable, userId: string, after: string, limit: number) =>
  db
    .selectFrom('post_reactions')
    .select(['post_id as id', 'kind', 'created_at'])
    .where('user_id', '=', userId)
    .where('post_id', '>', after)
    .orderBy('post_id')
    .limit(limit)
    .execute();

const commentReactionsPage = (db: Queryable, userId: string, after: string, limit: number) =>
  db
    .selectFrom('comment_reactions')
    .select(['comment_id as id', 'kind', 'created_at'])
    .where('user_id', '=', userId)
    .where('comment_id', '>', after)
    .orderBy('comment_id')
    .limit(limit)
    .execute();

/** The posts the user saved (issue 73); only the ids: a saved post is someone else's to export. */
const savedPostsPage = (db: Queryable, userId: string, after: string, limit: number) =>
  db
    .selectFrom('saved_posts')
    .select(['post_id as id', 'created_at'])
    .where('user_id', '=', userId)
    .where('post_id', '>', after)
    .orderBy('post_id')
    .limit(limit)
    .execute();

/** The tags the user follows (issue 73), by key. */
const followedTagsPage = (db: Queryable, userId: string, after: string, limit: number) =>
  db
    .selectFrom('followed_tags')
    .select(['tag as id', 'name', 'created_at'])
    .where('user_id', '=', userId)
    .where('tag', '>', after)
    .orderBy('tag')
    .limit(limit)
    .execute();

/** People the user follows (`following`) or who follow the user (`followers`). */
function followsPage(db: Queryable, userId: string, side: 'following' | 'followers', after: string, limit: number) {
  const [own, other] =
    side === 'followers' ? (['followee_id', 'follower_id'] as const) : (['follower_id', 'followee_id'] as const);
  return db
    .selectFrom('follows')
    .innerJoin('users', 'users.id', `follows.${other}`)
    .select(['follows.id', 'users.username', 'follows.created_at'])
    .where(`follows.${own}`, '=', userId)
    .where('follows.id', '>', after)
    .orderBy('follows.id')
    .limit(limit)
    .execute();
}

/** The people the user blocks or mutes. */
const relationsPage = (db: Queryable, userId: string, relation: 'blocks' | 'mutes', after: string, limit: number) =>
  db
    .selectFrom(relation)
    .innerJoin('users', 'users.id', `${relation}.target_id`)
    .select([`${relation}.id`, 'users.username', `${relation}.created_at`])
    .where(`${relation}.user_id`, '=', userId)
    .where(`${relation}.id`, '>', after)
    .orderBy(`${relation}.id`)
    .limit(limit)
    .execute();

/** What others did that the user was told about, with who did it. */
const notificationsPage = (db: Queryable, userId: string, after: string, limit: number) =>
  db
    .selectFrom('notifications')
    .innerJoin('users', 'users.id', 'notifications.actor_id')
    .leftJoin('comments', 'comments.id', 'notifications.comment_id')
    .select((eb) => [
      'notifications.id',
      'notifications.type',
      'users.username as actor',
      eb.fn.coalesce('notifications.post_id', 'comments.post_id').as('post_id'),
      'notifications.comment_id',
      'notifications.read_at',
      'notifications.created_at',
    ])
    .where('notifications.user_id', '=', userId)
    .where('notifications.id', '>', after)
    .orderBy('notifications.id')
    .limit(limit)
    .execute();

const mediaPage = (db: Queryable, userId: string, after: string, limit: number) =>
  db
    .selectFrom('media')
    .select(['id', 'preset', 'storage_key', 'format', 'variants', 'created_at'])
    .where('owner_id', '=', userId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();

// Deletion, inside one transaction.

/**
 * On PostgreSQL: holds the user's row until the deletion commits. Every insert that names the
 * user (a reaction, comment or follow racing the deletion) takes a key-share lock on it, so it
 * either committed before (and is counted below) or waits and then fails.
 */
async function lockUser(db: Queryable, userId: string): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`.execute(db);
}

/**
 * Takes the user's reactions, comments and follows off the counters of the rows they were counted
 * on (the rows themselves go with the user, ON DELETE CASCADE). A user reacts at most once per
 * post or comment and follows someone at most once, so each is one per row.
 */
async function uncountUser(db: Queryable, userId: string): Promise<void> {
  for (const [table, reactions, key] of [
    ['posts', 'post_reactions', 'post_id'],
    ['comments', 'comment_reactions', 'comment_id'],
  ] as const) {
    for (const [kind, column] of [
      ['like', 'likes_count'],
      ['dislike', 'dislikes_count'],
    ] as const) {
      await sql`
        UPDATE ${sql.table(table)} SET ${sql.ref(column)} = ${sql.ref(column)} - 1
        WHERE id IN (SELECT ${sql.ref(key)} FROM ${sql.table(reactions)} WHERE user_id = ${userId} AND kind = ${kind})`.execute(
        db,
      );
    }
  }
  await sql`
    UPDATE posts SET comments_count = comments_count -
      (SELECT count(*) FROM comments c WHERE c.post_id = posts.id AND c.user_id = ${userId})
    WHERE id IN (SELECT post_id FROM comments WHERE user_id = ${userId})`.execute(db);
  await sql`
    UPDATE users SET followers_count = followers_count - 1
    WHERE id IN (SELECT followee_id FROM follows WHERE follower_id = ${userId})`.execute(db);
  await sql`
    UPDATE users SET following_count = following_count - 1
    WHERE id IN (SELECT follower_id FROM follows WHERE followee_id = ${userId})`.execute(db);
}

const postIdsOf = async (db: Queryable, userId: string) =>
  (await db.selectFrom('posts').select('id').where('creator_id', '=', userId).execute()).map((r) => r.id);

/**
 * Who else holds unread notifications the user's deletion takes (the cascade): those the user
 * caused, and those about the user's posts (others' comments on them included).
 */
const unreadRecipientsOf = async (db: Queryable, userId: string) =>
  (
    await db
      .selectFrom('notifications')
      .innerJoin('users as recipient', 'recipient.id', 'notifications.user_id')
      .select('notifications.user_id')
      .distinct()
      .where(isUnread)
      .where('notifications.user_id', '<>', userId)
      .where((eb) =>
        eb.or([
          eb('notifications.actor_id', '=', userId),
          eb(
            'notifications.post_id',
            'in',
            eb.selectFrom('posts').select('posts.id').where('posts.creator_id', '=', userId),
          ),
          // One about a comment keeps its post through the comment (`insertNotificationSteps`).
          eb(
            'notifications.comment_id',
            'in',
            eb
              .selectFrom('comments')
              .innerJoin('posts', 'posts.id', 'comments.post_id')
              .select('comments.id')
              .where('posts.creator_id', '=', userId),
          ),
        ]),
      )
      .execute()
  ).map((r) => r.user_id);

/** Every stored file of the user's uploads (JSON lists of variants). */
const mediaVariantsOf = async (db: Queryable, userId: string) =>
  (await db.selectFrom('media').select('variants').where('owner_id', '=', userId).execute()).map((r) => r.variants);

/** The archives the user's imports still keep (a job waiting for its picks, or running). */
const importArchivesOf = async (db: Queryable, userId: string) =>
  (
    await db
      .selectFrom('instagram_imports')
      .select('archive')
      .where('user_id', '=', userId)
      .where('archive', 'is not', null)
      .execute()
  ).flatMap((r) => (r.archive === null ? [] : [r.archive]));

/** Sessions, posts (with their tags, reactions, saves and comments), comments, reactions, saves, follows, media rows, 2FA. */
async function deleteUser(db: Queryable, userId: string): Promise<boolean> {
  return (await db.deleteFrom('users').where('id', '=', userId).returning('id').executeTakeFirst()) !== undefined;
}

/** Holds the name until `until`; names whose time is up are dropped on the way, so the table stays small. */
async function retireUsername(db: Queryable, usernameLower: string, until: string, now: string): Promise<void> {
  await db.deleteFrom('retired_usernames').where('retired_until', '<=', now).execute();
  await db
    .insertInto('retired_usernames')
    .values({ username_lower: usernameLower, retired_until: until })
    .onConflict((oc) => oc.column('username_lower').doUpdateSet({ retired_until: until }))
    .execute();
}

export const accountRepository = bindQueries({
  postsPage,
  photosOfPosts,
  commentsPage,
  postReactionsPage,
  commentReactionsPage,
  savedPostsPage,
  followedTagsPage,
  followsPage,
  relationsPage,
  notificationsPage,
  mediaPage,
  lockUser,
  uncountUser,
  postIdsOf,
  unreadRecipientsOf,
  mediaVariantsOf,
  importArchivesOf,
  deleteUser,
  retireUsername,
});

export type AccountRepository = ReturnType<typeof accountRepository>;
