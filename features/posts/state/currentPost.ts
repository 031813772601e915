import { createAction, createReducer } from '@reduxjs/toolkit';
import type { Comment } from '../../../lib/types';
import type { CommentReaction } from './postsApi';
import { applyReaction } from './stored';
import {
  addComment,
  deleteComment,
  dislikeComment,
  fetchMoreComments,
  fetchPost,
  likeComment,
  messageOf,
} from './thunks';

/** The post on its own page: its id into the stored posts, its comments and their paging. */
export interface CurrentPost {
  id: string | null;
  comments: Comment[];
  loading: boolean;
  error: string | null;
  commentsNext: string | null;
  commentsLoading: boolean;
}

const emptyCurrentPost = (): CurrentPost => ({
  id: null,
  comments: [],
  loading: false,
  error: null,
  commentsNext: null,
  commentsLoading: false,
});

export const postCleared = createAction('posts/postCleared');

export default createReducer(emptyCurrentPost(), (builder) => {
  builder
    .addCase(postCleared, () => emptyCurrentPost())
    .addCase(fetchPost.pending, (current) => {
      current.loading = true;
      current.error = null;
    })
    .addCase(fetchPost.fulfilled, (_, action) => ({
      ...emptyCurrentPost(),
      id: action.payload.post._id,
      comments: action.payload.post.comments,
      commentsNext: action.payload.commentsNext,
    }))
    .addCase(fetchPost.rejected, (current, action) => {
      current.loading = false;
      current.error = messageOf(action);
    })
    .addCase(fetchMoreComments.pending, (current) => {
      current.commentsLoading = true;
    })
    .addCase(fetchMoreComments.fulfilled, (current, action) => {
      current.commentsLoading = false;
      current.commentsNext = action.payload.next;
      if (!current.id) return;
      const known = new Set(current.comments.map((c) => c.commentId));
      current.comments.push(...action.payload.items.filter((c) => !known.has(c.commentId)));
    })
    .addCase(fetchMoreComments.rejected, (current) => {
      current.commentsLoading = false;
      current.commentsNext = null;
    })
    .addCase(addComment.fulfilled, (current, action) => {
      if (current.id === action.payload.postId) current.comments.unshift(action.payload.comment);
    })
    .addCase(deleteComment.fulfilled, (current, action) => {
      const { postId, commentId } = action.payload;
      if (current.id === postId) current.comments = current.comments.filter((c) => c.commentId !== commentId);
    })
    .addCase(likeComment.fulfilled, (current, action) => applyCommentReaction(current, action.payload))
    .addCase(dislikeComment.fulfilled, (current, action) => applyCommentReaction(current, action.payload));
});

function applyCommentReaction(current: CurrentPost, reaction: CommentReaction) {
  const comment = current.comments.find((c) => c.commentId === reaction.commentId);
  if (comment) applyReaction(comment, reaction);
}
