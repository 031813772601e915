/** Comment rules: validation, who may delete, counters, reactions. */
import { type Transaction, sql } from 'kysely';
import type { Comment, Reaction, ReactionCounts } from '../../lib/types';
import { commentMessageError } from '../../lib/validation';
import type { AppContext } from '../app';
import type { Database } from '../db/schema';
import { isUuid, newId, nowIso } from '../domain/ids';
import { requirePost } from '../posts/service';
import { COMMENT_REACTIONS, toggleReaction } from '../reactions/toggle';
import { toComment } from './mappers';
import * as comments from './repository';
import { ForbiddenError, InvalidError, NotFoundError } from '../domain/errors';
import type { AuthUser, Page } from '../domain/types';

const commentNotFound = () => new NotFoundError('Comment not found', 'CommentNotFound');

export function commentsService(ctx: Pick<AppContext, 'db'>) {
  const { db } = ctx;
  const k = db.kysely;

  const addToCommentsCount = (trx: Transaction<Database>, postId: string, delta: number) =>
    trx.updateTable('posts').set({ comments_count: sql`comments_count + ${delta}` }).where('id', '=', postId).execute();

  return {
    async list(user: AuthUser, postId: string, page: Page): Promise<Comment[]> {
      const rows = await comments.listComments(k, user.id, postId, page.cursor, page.limit + 1);
      // Comments prove their post exists; only an empty page needs to ask (a 404, or no comments).
      if (rows.length === 0) await requirePost(k, postId);
      return rows.map(toComment);
    },

    async add(user: AuthUser, postId: string, rawMessage: unknown): Promise<Comment> {
      const message = typeof rawMessage === 'string' ? rawMessage.trim() : '';
      const error = commentMessageError(message);
      if (error) throw new InvalidError(error, 'InvalidComment');
      await requirePost(k, postId);
      const id = newId();
      await k.transaction().execute(async (trx) => {
        await comments.insertComment(trx, { id, post_id: postId, user_id: user.id, message, created_at: nowIso() });
        await addToCommentsCount(trx, postId, 1);
      });
      return toComment((await comments.findComment(k, user.id, id))!);
    },

    async remove(user: AuthUser, postId: string, commentId: string): Promise<{ commentId: string }> {
      const post = await requirePost(k, postId);
      const comment = isUuid(commentId) ? await comments.findComment(k, user.id, commentId) : undefined;
      if (!comment || comment.post_id !== postId) throw commentNotFound();
      const allowed = comment.user_id === user.id || post.creator_id === user.id || user.role === 'admin';
      if (!allowed) throw new ForbiddenError('Only the comment author, the post creator or an admin can delete this comment');
      await k.transaction().execute(async (trx) => {
        await comments.deleteComment(trx, commentId);
        await addToCommentsCount(trx, postId, -1);
      });
      return { commentId };
    },

    async react(user: AuthUser, postId: string, commentId: unknown, kind: Reaction): Promise<ReactionCounts & { commentId: string }> {
      if (!isUuid(commentId)) throw new InvalidError('commentId is required', 'InvalidComment');
      await requirePost(k, postId);
      const comment = await comments.findComment(k, user.id, commentId);
      if (!comment || comment.post_id !== postId) throw commentNotFound();
      const counts = await k.transaction().execute((trx) => toggleReaction(trx, db.dialect, COMMENT_REACTIONS, commentId, user.id, kind));
      if (!counts) throw commentNotFound();
      return { commentId, ...counts };
    },
  };
}
