import type { Comment } from '../../lib/types';
import { mentionList } from '../mentions/names';
import type { CommentListRow } from './repository';

export const toComment = (row: CommentListRow): Comment => ({
  commentId: row.id,
  message: row.message,
  creator: row.creator,
  ...(row.creator_name !== null && { creatorName: row.creator_name }),
  creatorImage: row.creator_image,
  likesCount: Number(row.likes_count),
  dislikesCount: Number(row.dislikes_count),
  myReaction: row.my_reaction ?? null,
  mentions: mentionList(row.mentions, row.message),
  createdAt: row.created_at,
  ...(row.original_uri !== null && { originalUri: row.original_uri }),
});
