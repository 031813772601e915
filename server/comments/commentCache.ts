/** Comments and a post's comment pages as every reader shares them (`cache/sharedRows.ts`). */
import type { CacheRegistry } from '../cache/registry';
import { type LoadReactions, type LoadRows, type SharedRows, sharedRows } from '../cache/sharedRows';
import type { CommentListRow } from './repository';

export type CommentCache = SharedRows<CommentListRow>;

/** Two reads of a comment agree but for the reader's reaction (comments are never edited). */
const sameComment = (a: CommentListRow, b: CommentListRow) =>
  a.likes_count === b.likes_count &&
  a.dislikes_count === b.dislikes_count &&
  a.creator === b.creator &&
  a.creator_image === b.creator_image &&
  a.creator_name === b.creator_name &&
  a.creator_suspended_at === b.creator_suspended_at &&
  a.mentions === b.mentions;

export const commentCache = (
  caches: CacheRegistry,
  load: LoadRows<CommentListRow>,
  loadReactions: LoadReactions,
  ttlMs: number,
): CommentCache => sharedRows(load, { caches, name: 'comment', ttlMs, loadReactions, same: sameComment });

/** A post's comment list; its pages' keys are the list's, `|` and the page's cursor (as the posts' lists). */
export const commentListKey = (postId: string) => postId;
