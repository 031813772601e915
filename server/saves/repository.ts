/** The saved posts' rows (issue 73): each person's own, never counted or shown to anyone else. */
import { bindQueries } from '../db/repository';
import type { Queryable } from '../db/schema';
import { newestFirstByTime } from '../db/keyset';
import { literalLimit, stableInList } from '../db/stablePlans';

/**
 * Saves the post for the user, once: no row when the post is gone meanwhile (the insert reads it),
 * none added when it is saved already. The first save's time stays.
 */
async function savePost(db: Queryable, userId: string, postId: string, at: string): Promise<void> {
  await db
    .insertInto('saved_posts')
    .columns(['user_id', 'post_id', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('posts')
        .select((s) => [s.val(userId).as('user_id'), 'posts.id', s.val(at).as('created_at')])
        .where('posts.id', '=', postId),
    )
    .onConflict((oc) => oc.columns(['user_id', 'post_id']).doNothing())
    .execute();
}

async function unsavePost(db: Queryable, userId: string, postId: string): Promise<void> {
  await db.deleteFrom('saved_posts').where('user_id', '=', userId).where('post_id', '=', postId).execute();
}

/**
 * The ids of the user's saved posts, newest saved first, below the save of `cursor` (a post id of
 * theirs; a post they no longer saved ends the list), at most `limit`. Unfiltered: who may see
 * each post now is the posts' rule (`posts/access.ts`).
 */
async function savedIdsPage(db: Queryable, userId: string, cursor: string | null, limit: number): Promise<string[]> {
  const query = db.selectFrom('saved_posts').select('post_id').where('user_id', '=', userId);
  // The cursor's save: the page goes on below its time.
  const savedAt = (postId: string) =>
    db
      .selectFrom('saved_posts as at')
      .select('at.created_at')
      .where('at.user_id', '=', userId)
      .where('at.post_id', '=', postId);
  const page = newestFirstByTime(
    query,
    { time: 'created_at', id: 'post_id' },
    cursor === null ? null : { id: cursor, time: savedAt(cursor) },
    limit,
  );
  return (await page.execute()).map((r) => r.post_id);
}

/** All of the user's saved post ids, up to `limit` (the caller asks one more than it keeps). */
async function savedIdsOf(db: Queryable, userId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('saved_posts')
    .select('post_id')
    .where('user_id', '=', userId)
    .limit(literalLimit(limit))
    .execute();
  return rows.map((r) => r.post_id);
}

/** Which of these posts the user saved. */
async function savedAmong(db: Queryable, userId: string, postIds: string[]): Promise<string[]> {
  if (postIds.length === 0) return [];
  const rows = await db
    .selectFrom('saved_posts')
    .select('post_id')
    .where('user_id', '=', userId)
    .where('post_id', 'in', stableInList(postIds))
    .execute();
  return rows.map((r) => r.post_id);
}

export const savesRepository = bindQueries({ savePost, unsavePost, savedIdsPage, savedIdsOf, savedAmong });

export type SavesRepository = ReturnType<typeof savesRepository>;
