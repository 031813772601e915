/** Queries on comments. */
import type { Insertable } from 'kysely';
import { newestFirst } from '../db/keyset';
import { prepared } from '../db/prepared';
import { mentionedNames } from '../mentions/repository';
import { bindQueries } from '../db/repository';
import type { CommentsTable, Queryable } from '../db/schema';
import { stableInList, unplanned } from '../db/stablePlans';
import { type Steps, ask, stepsOn } from '../db/steps';
import { visibleAuthor } from '../safety/visibility';

/**
 * The viewer's reaction as a subquery, for the reason `selectPosts` gives. Comments across a block
 * and a suspended user's are hidden, in a post's list (`across`) an unfollowed silenced person's too
 * (`all`: unfiltered, the comment cache filters them itself); a mute leaves a post's comments alone
 * (it is about the feeds).
 */
export function selectComments(db: Queryable, viewerId: string, place: 'content' | 'across' | 'all' = 'content') {
  const query = db
    .selectFrom('comments')
    .innerJoin('users', 'users.id', 'comments.user_id')
    .select((eb) => [
      'comments.id',
      'comments.post_id',
      'comments.user_id',
      'comments.message',
      'comments.likes_count',
      'comments.dislikes_count',
      'comments.created_at',
      'comments.uri as original_uri',
      'users.username as creator',
      'users.avatar as creator_image',
      'users.display_name as creator_name',
      'users.suspended_at as creator_suspended_at',
      'users.domain_silenced as creator_silenced',
      eb
        .selectFrom('comment_reactions as mine')
        .select('mine.kind')
        .whereRef('mine.comment_id', '=', 'comments.id')
        .where('mine.user_id', '=', viewerId)
        .as('my_reaction'),
      mentionedNames(db, 'comments').as('mentions'),
    ]);
  if (place === 'all') return query;
  return query.where(visibleAuthor(db, viewerId, { author: 'comments.user_id', authorRow: 'users', place }));
}

export type CommentListRow = Awaited<ReturnType<ReturnType<typeof selectComments>['execute']>>[number];

/**
 * The post exists and the viewer may see its creator: asked once in the comments' statement (an
 * uncorrelated subquery), so a page is one round trip (docs/benchmarks/log/2026-11-24.md#a-blocked-profile-read-every-post-2026-11-24).
 */
function visiblePost(db: Queryable, viewerId: string, postId: string) {
  return db
    .selectFrom('posts as post')
    .innerJoin('users as author', 'author.id', 'post.creator_id')
    .select('post.id')
    .where('post.id', '=', unplanned(db, postId))
    .where(visibleAuthor(db, viewerId, { author: 'post.creator_id', authorRow: 'author', place: 'content' }));
}

const newestComments = prepared((db, v: { viewerId: string; postId: string; cursor: string | null; limit: number }) =>
  newestFirst(
    selectComments(db, v.viewerId, 'across')
      .where('comments.post_id', '=', unplanned(db, v.postId))
      .where((eb) => eb.exists(visiblePost(db, v.viewerId, v.postId))),
    'comments.id',
    v.cursor,
    v.limit,
  ),
);

/** Comments of a post the viewer may see, newest first, after the cursor; none for a post hidden from the viewer. */
const listComments = (db: Queryable, viewerId: string, postId: string, cursor: string | null, limit: number) =>
  newestComments(db, { viewerId, postId, cursor, limit });

const commentsWithIds = prepared((db, v: { viewerId: string; ids: string[] }) =>
  selectComments(db, v.viewerId, 'all').where('comments.id', 'in', v.ids).orderBy('comments.id', 'desc'),
);

/** The comments with these ids, unfiltered (the comment cache's rows). */
export async function commentsByIds(db: Queryable, viewerId: string, ids: string[]): Promise<CommentListRow[]> {
  if (ids.length === 0) return [];
  return commentsWithIds(db, { viewerId, ids: stableInList(ids) });
}

const newestCommentIds = prepared((db, v: { postId: string; cursor: string | null; limit: number }) =>
  newestFirst(
    db.selectFrom('comments').select('id').where('post_id', '=', unplanned(db, v.postId)),
    'id',
    v.cursor,
    v.limit,
  ),
);

/** A post's comment ids below the cursor, newest first, unfiltered (the comment cache's lists). */
const commentIds = async (db: Queryable, postId: string, cursor: string | null, limit: number) =>
  (await newestCommentIds(db, { postId, cursor, limit })).map((row) => row.id);

const commentWithId = prepared((db, v: { viewerId: string; id: string }) =>
  selectComments(db, v.viewerId).where('comments.id', '=', unplanned(db, v.id)),
);

const findComment = async (db: Queryable, viewerId: string, id: string) =>
  (await commentWithId(db, { viewerId, id }))[0];

/** `findComment` as a step of a write (`db/steps.ts`). */
export function* commentSteps(viewerId: string, id: string) {
  return (yield* ask(commentWithId, { viewerId, id }))[0];
}

const newComment = prepared((db, comment: Insertable<CommentsTable> & Record<string, unknown>) =>
  db.insertInto('comments').values(comment),
);

export function* insertCommentSteps(comment: Insertable<CommentsTable>): Steps<void> {
  yield* ask(newComment, { ...comment });
}

const insertComment = (db: Queryable, comment: Insertable<CommentsTable>) => stepsOn(db, insertCommentSteps(comment));

/** True when this call removed the comment (see `deletePost`). */
async function deleteComment(db: Queryable, id: string): Promise<boolean> {
  return (await db.deleteFrom('comments').where('id', '=', id).returning('id').executeTakeFirst()) !== undefined;
}

/** The queries on comments, bound to a database or a transaction. */
export const commentsRepository = bindQueries({
  listComments,
  commentIds,
  findComment,
  insertComment,
  deleteComment,
});

export type CommentsRepository = ReturnType<typeof commentsRepository>;
