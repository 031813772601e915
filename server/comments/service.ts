/** Comment rules: validation, who may delete, counters, reactions. */
import type { Comment, Post, PostWithComments, Reaction, ReactionCounts } from '../../lib/types';
import { MENTIONS_PER_MESSAGE_MAX } from '../../lib/limits';
import { commentMessageError } from '../../lib/validation';
import { pageKey } from '../cache/sharedRows';
import type { Transactional } from '../db/repository';
import { ForbiddenError, InvalidError, NotFoundError } from '../domain/errors';
import { isUuid, newId, nowIso } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import { type MentionRules, type NamedInText, mentionedUsersSteps, namedInText } from '../mentions/names';
import { type MentionsRepository, addCommentMentionsSteps, usersWithIdsSteps } from '../mentions/repository';
import type { PublishEvent } from '../events/domainEvents';
import { unreadFellFor } from '../events/events';
import { type NotifiedAction, likeChange, notifyEachSteps, notifySteps, withdrawSteps } from '../notifications/notify';
import type { NotificationsRepository } from '../notifications/repository';
import type { PostCache } from '../posts/postCache';
import { type PostsRepository, addToCommentsCountSteps, audienceAmongSteps } from '../posts/repository';
import {
  type ReaderOf,
  contentShows,
  postNotFound,
  requirePost,
  requireVisiblePost,
  requireVisiblePostSteps,
} from '../posts/access';
import { COMMENT_REACTIONS, type ReactionsRepository, toggleSteps } from '../reactions/repository';
import { showsAcross } from '../safety/hiddenAuthors';
import type { SafetyRepository } from '../safety/repository';
import { type CommentCache, commentListKey } from './commentCache';
import type { CommentViews } from './commentViews';
import { toComment } from './mappers';
import { type CommentsRepository, commentSteps, insertCommentSteps } from './repository';

const commentNotFound = () => new NotFoundError('Comment not found', 'CommentNotFound');

/**
 * A like or dislike pressed on a comment, as one transaction's steps (`db/steps.ts`): its post
 * visible to the reader, the comment on it (a 404 otherwise), the toggle, the notification.
 */
function* reactSteps(userId: string, postId: string, commentId: string, kind: Reaction) {
  yield* requireVisiblePostSteps(userId, postId);
  const comment = yield* commentSteps(userId, commentId);
  if (!comment || comment.post_id !== postId) throw commentNotFound();
  const toggled = yield* toggleSteps(COMMENT_REACTIONS, commentId, userId, kind);
  const change = toggled && likeChange(kind, toggled.counts.myReaction);
  if (!change) return { toggled, notified: null };
  const action = { type: 'commentLike', userId: comment.user_id, actorId: userId } as const;
  if (change === 'removed') return { toggled, notified: yield* withdrawSteps({ ...action, subjectId: commentId }) };
  return { toggled, notified: yield* notifySteps({ ...action, postId, commentId }) };
}

/**
 * A new comment, as one transaction's steps: its post visible to the writer (a 404 otherwise), the
 * post's count, the comment, its mentions, the notifications; the comment read back as it shows.
 */
function* addSteps(
  userId: string,
  postId: string,
  id: string,
  message: string,
  origin: { uri: string; mentionedIds?: string[] } | undefined,
  mentionsPerMinute: number,
  named: NamedInText | null,
) {
  const post = yield* requireVisiblePostSteps(userId, postId);
  const mentioned = origin?.mentionedIds
    ? yield* usersWithIdsSteps(origin.mentionedIds.slice(0, MENTIONS_PER_MESSAGE_MAX), userId)
    : named
      ? yield* mentionedUsersSteps(named, userId)
      : [];
  // The counter first: a post deleted since the check above is a 404, not a foreign-key error.
  if (!(yield* addToCommentsCountSteps(postId, 1))) throw postNotFound();
  yield* insertCommentSteps({
    id,
    post_id: postId,
    user_id: userId,
    message,
    created_at: nowIso(),
    uri: origin?.uri ?? null,
  });
  yield* addCommentMentionsSteps(
    id,
    mentioned.map((u) => u.id),
  );
  const about = { actorId: userId, postId, commentId: id };
  // The post's creator hears of the comment already, with its text; those the post's audience leaves
  // out hear nothing of it (issue 70).
  const told = yield* audienceAmongSteps(
    postId,
    mentioned.filter((u) => u.id !== post.creator_id).map((u) => u.id),
  );
  const notified = yield* notifyEachSteps(
    [
      { type: 'comment', userId: post.creator_id, ...about },
      ...told.map((mentionedId): NotifiedAction => ({ type: 'mention', userId: mentionedId, ...about })),
    ],
    mentionsPerMinute,
  );
  // Read before the commit: right after it, a delete of the post waiting on its lock takes the comment too.
  return { notified, row: (yield* commentSteps(userId, id))! };
}

export interface CommentsServiceDeps {
  data: Transactional<{
    posts: PostsRepository;
    comments: CommentsRepository;
    reactions: ReactionsRepository;
    notifications: NotificationsRepository;
    mentions: MentionsRepository;
    safety: SafetyRepository;
  }>;
  /** A post shows how many comments it has; a page of comments needs its post visible. */
  postCache: Pick<PostCache, 'rows'>;
  commentCache: Pick<CommentCache, 'page'>;
  views: Pick<CommentViews, 'of' | 'listText' | 'withCommentsText'>;
  /** The reader as the rules of who sees what ask of them (`posts/access.ts`). */
  readerOf: ReaderOf;
  /** One post as the viewer may see it (`PostsService.one`): the page of a post with its comments. */
  post: (user: AuthUser, id: string) => Promise<Post>;
  /** Tells the rest of the app what each write changed, once committed. */
  publish: PublishEvent;
  /** Mention notifications one author may send a minute (`RATE_LIMIT_MENTIONS_PER_USER`). */
  mentionsPerMinute: number;
  /** This site's host and the look-up of people elsewhere a text names (`mentions/names.ts`). */
  mentionRules?: MentionRules;
}

export function commentsService({
  data,
  postCache,
  commentCache,
  views,
  readerOf,
  post,
  publish,
  mentionsPerMinute,
  mentionRules,
}: CommentsServiceDeps) {
  const { comments, posts } = data;

  /**
   * A page of the post's comments the reader may see: from the comment cache when the post is
   * visible to them, else from the database (none for a post missing or hidden). `shown`: the post
   * as the caller has just shown it to the reader (a post read once is not kept yet: it would be
   * read again). A count of 0 says there is nothing to read (most posts): each comment changes it in
   * its own transaction, and the reader's leaves out those of people blocked either way (`countedFor`).
   */
  async function visiblePage(
    user: AuthUser,
    postId: string,
    page: Page,
    shown?: Pick<Post, 'commentsCount'>,
  ): Promise<Comment[]> {
    if (shown?.commentsCount === 0) return [];
    const reader = await readerOf(user, 'any');
    const { hidden } = reader;
    const [post] = shown ? [] : await postCache.rows(user.id, [postId]);
    if (shown || (post && contentShows(post, reader))) {
      if (post?.comments_count === 0) return [];
      const rows = await commentCache.page(user.id, {
        key: pageKey(commentListKey(postId), page.cursor),
        cursor: page.cursor,
        want: page.limit + 1,
        ids: (after, count) => comments.commentIds(postId, after, count),
        shows: (row) =>
          showsAcross(hidden, {
            id: row.user_id,
            suspendedAt: row.creator_suspended_at,
            silenced: row.creator_silenced,
          }),
      });
      if (rows) return rows.map(views.of);
    }
    return (await comments.listComments(user.id, postId, page.cursor, page.limit + 1)).map(toComment);
  }

  return {
    visiblePage,
    /** Reply serializers of what this service answers (`commentViews.ts`). */
    listText: views.listText,
    withCommentsText: views.withCommentsText,

    /**
     * The post with its newest `limit` comments and one more, which only says that older ones
     * exist (the route turns it into the `Link` to them, as for any list).
     */
    async postWithComments(user: AuthUser, postId: string, limit: number): Promise<PostWithComments> {
      const shown = await post(user, postId);
      return { ...shown, comments: await visiblePage(user, postId, { cursor: null, limit }, shown) };
    },

    /** One comment by its own id, with its post's id, when the viewer may see both; a 404 otherwise. */
    async one(user: AuthUser, commentId: string): Promise<{ comment: Comment; postId: string }> {
      const row = isUuid(commentId) ? await comments.findComment(user.id, commentId) : undefined;
      if (!row) throw commentNotFound();
      await requireVisiblePost(data, user.id, row.post_id).catch(() => {
        throw commentNotFound();
      });
      return { comment: toComment(row), postId: row.post_id };
    },

    async list(user: AuthUser, postId: string, page: Page): Promise<Comment[]> {
      if (!isUuid(postId)) throw postNotFound();
      const rows = await visiblePage(user, postId, page);
      // No rows: a post without comments (below the cursor), or one missing or hidden from the viewer (404).
      if (rows.length === 0) await requireVisiblePost(data, user.id, postId);
      return rows;
    },

    /**
     * `origin`: a comment from elsewhere, its Note's id and the local people its `Mention` tags name
     * (its text names them as `@name@host`, which no name here matches).
     */
    async add(
      user: AuthUser,
      postId: string,
      rawMessage: unknown,
      origin?: { uri: string; mentionedIds?: string[] },
    ): Promise<Comment> {
      const message = typeof rawMessage === 'string' ? rawMessage.trim() : '';
      const error = commentMessageError(message);
      if (error) throw new InvalidError(error, 'InvalidComment');
      const id = newId();
      // A comment from elsewhere names its people in its `Mention` tags; nothing is looked up for it.
      const named = origin?.mentionedIds ? null : await namedInText(data.mentions, message, mentionRules);
      const { notified, row } = await data.steps(() =>
        addSteps(user.id, postId, id, message, origin, mentionsPerMinute, named),
      );
      publish({ type: 'CommentAdded', postId, commentId: id, creatorId: user.id, notifications: notified });
      return toComment(row);
    },

    async remove(user: AuthUser, postId: string, commentId: string): Promise<{ commentId: string }> {
      const post = await requirePost(posts, postId);
      const comment = isUuid(commentId) ? await comments.findComment(user.id, commentId) : undefined;
      if (!comment || comment.post_id !== postId) throw commentNotFound();
      const allowed = comment.user_id === user.id || post.creator_id === user.id || user.role === 'admin';
      if (!allowed)
        throw new ForbiddenError('Only the comment author, the post creator or an admin can delete this comment');
      const recipients = await data.transaction(async (trx) => {
        // Its notifications go with it (ON DELETE CASCADE): whose unread count falls is read first.
        const recipients = await trx.notifications.unreadRecipientsAbout({ commentId });
        // The same delete arriving twice at once: only the one that removed the row counts it.
        if (!(await trx.comments.deleteComment(commentId))) throw commentNotFound();
        await trx.posts.addToCommentsCount(postId, -1);
        return recipients;
      });
      publish({
        type: 'CommentDeleted',
        postId,
        commentId,
        creatorId: comment.user_id,
        notifications: unreadFellFor(recipients),
      });
      return { commentId };
    },

    async react(
      user: AuthUser,
      postId: string,
      commentId: unknown,
      kind: Reaction,
    ): Promise<ReactionCounts & { commentId: string }> {
      if (!isUuid(commentId)) throw new InvalidError('commentId is required', 'InvalidComment');
      const { toggled, notified } = await data.steps(() => reactSteps(user.id, postId, commentId, kind));
      if (!toggled) throw commentNotFound();
      const { counts, counted } = toggled;
      // The new like's notification, or the unread one taken back: the streams hear of either.
      publish({
        type: 'CommentReacted',
        postId,
        commentId,
        userId: user.id,
        reaction: counts.myReaction,
        counted,
        notifications: notified ? [notified] : [],
      });
      return { commentId, ...counts };
    },
  };
}

export type CommentsService = ReturnType<typeof commentsService>;
