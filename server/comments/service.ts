/** Comment rules: validation, who may delete, counters, reactions. */
import type { Comment, Reaction, ReactionCounts } from '../../lib/types';
import { commentMessageError } from '../../lib/validation';
import type { Transactional } from '../db/repository';
import { ForbiddenError, InvalidError, NotFoundError } from '../domain/errors';
import { isUuid, newId, nowIso } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import { mentionedUsers } from '../mentions/names';
import type { MentionsRepository } from '../mentions/repository';
import {
  type NotificationNudge,
  type NotifiedAction,
  likeChange,
  notify,
  notifyEach,
  unnotified,
  unnotify,
} from '../notifications/notify';
import type { NotificationsRepository } from '../notifications/repository';
import type { PostsRepository } from '../posts/repository';
import { postNotFound, requirePost, requireVisiblePost } from '../posts/service';
import type { SafetyRepository } from '../safety/repository';
import { COMMENT_REACTIONS, type ReactionsRepository } from '../reactions/repository';
import { toComment } from './mappers';
import type { CommentsRepository } from './repository';

const commentNotFound = () => new NotFoundError('Comment not found', 'CommentNotFound');

export interface CommentsServiceDeps {
  data: Transactional<{
    posts: PostsRepository;
    comments: CommentsRepository;
    reactions: ReactionsRepository;
    notifications: NotificationsRepository;
    mentions: MentionsRepository;
    safety: SafetyRepository;
  }>;
  /** Tells the streams about notifications written or removed once their transaction has committed. */
  announce: NotificationNudge;
}

export function commentsService({ data, announce }: CommentsServiceDeps) {
  const { comments, posts } = data;

  return {
    async list(user: AuthUser, postId: string, page: Page): Promise<Comment[]> {
      if (!isUuid(postId)) throw postNotFound();
      const rows = await comments.listComments(user.id, postId, page.cursor, page.limit + 1);
      // No rows: a post without comments (below the cursor), or one missing or hidden from the viewer (404).
      if (rows.length === 0) await requireVisiblePost(data, user.id, postId);
      return rows.map(toComment);
    },

    async add(user: AuthUser, postId: string, rawMessage: unknown): Promise<Comment> {
      const message = typeof rawMessage === 'string' ? rawMessage.trim() : '';
      const error = commentMessageError(message);
      if (error) throw new InvalidError(error, 'InvalidComment');
      const post = await requireVisiblePost(data, user.id, postId);
      const id = newId();
      const { notified, row } = await data.transaction(async (trx) => {
        const mentioned = await mentionedUsers(trx.mentions, message, user.id);
        // The counter first: a post deleted since the check above is a 404, not a foreign-key error.
        if (!(await trx.posts.addToCommentsCount(postId, 1))) throw postNotFound();
        await trx.comments.insertComment({ id, post_id: postId, user_id: user.id, message, created_at: nowIso() });
        await trx.mentions.addCommentMentions(
          id,
          mentioned.map((u) => u.id),
        );
        const about = { actorId: user.id, postId, commentId: id };
        const notified = await notifyEach(trx.notifications, [
          { type: 'comment', userId: post.creator_id, ...about },
          // The post's creator hears of the comment already, with its text.
          ...mentioned
            .filter((u) => u.id !== post.creator_id)
            .map((u): NotifiedAction => ({ type: 'mention', userId: u.id, ...about })),
        ]);
        // Read before the commit: right after it, a delete of the post waiting on its lock takes the comment too.
        return { notified, row: (await trx.comments.findComment(user.id, id))! };
      });
      announce(notified);
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
      announce(unnotified(recipients));
      return { commentId };
    },

    async react(
      user: AuthUser,
      postId: string,
      commentId: unknown,
      kind: Reaction,
    ): Promise<ReactionCounts & { commentId: string }> {
      if (!isUuid(commentId)) throw new InvalidError('commentId is required', 'InvalidComment');
      await requireVisiblePost(data, user.id, postId);
      const comment = await comments.findComment(user.id, commentId);
      if (!comment || comment.post_id !== postId) throw commentNotFound();
      const { counts, nudge } = await data.transaction(async (trx) => {
        const counts = await trx.reactions.toggle(COMMENT_REACTIONS, commentId, user.id, kind);
        const change = counts && likeChange(kind, counts.myReaction);
        if (!change) return { counts, nudge: null };
        const action = { type: 'commentLike', userId: comment.user_id, actorId: user.id } as const;
        if (change === 'removed')
          return { counts, nudge: await unnotify(trx.notifications, { ...action, subjectId: commentId }) };
        return { counts, nudge: await notify(trx.notifications, { ...action, postId, commentId }) };
      });
      if (!counts) throw commentNotFound();
      // The new like's notification, or the unread one taken back: the streams hear of either.
      if (nudge) announce([nudge]);
      return { commentId, ...counts };
    },
  };
}

export type CommentsService = ReturnType<typeof commentsService>;
