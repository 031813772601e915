import { createEntityAdapter, createReducer } from '@reduxjs/toolkit';
import type { Post, ReactionCounts } from '../../../lib/types';
import { editorOpened } from './editor';
import {
  addComment,
  deleteComment,
  dislikePost,
  editPost,
  fetchMorePosts,
  fetchPost,
  fetchPosts,
  likePost,
  savePost,
} from './thunks';

/**
 * Every post the pages show, stored once by id: the lists and the current post hold ids, so an
 * edit, a reaction or a comment count changes the one copy they all read.
 */
export const postsAdapter = createEntityAdapter({ selectId: (post: Post) => post._id });

export type StoredPosts = ReturnType<typeof postsAdapter.getInitialState>;

export function applyReaction(target: ReactionCounts, counts: ReactionCounts) {
  target.likesCount = counts.likesCount;
  target.dislikesCount = counts.dislikesCount;
  target.myReaction = counts.myReaction;
}

export default createReducer(postsAdapter.getInitialState(), (builder) => {
  builder
    .addCase(fetchPosts.fulfilled, (state, action) => {
      postsAdapter.setMany(state, action.payload.items);
    })
    .addCase(fetchMorePosts.fulfilled, (state, action) => {
      postsAdapter.setMany(state, action.payload.page.items);
    })
    .addCase(fetchPost.fulfilled, (state, action) => {
      // The comments belong to the current post's state, not to the post.
      const { comments: _comments, ...post } = action.payload.post;
      postsAdapter.setOne(state, post);
    })
    .addCase(editorOpened, (state, action) => {
      if (action.payload) postsAdapter.addOne(state, action.payload);
    })
    .addCase(editPost.fulfilled, (state, action) => {
      const post = state.entities[action.payload._id];
      if (post) Object.assign(post, action.payload);
    })
    .addCase(likePost.fulfilled, (state, action) => {
      const post = state.entities[action.payload.id];
      if (post) applyReaction(post, action.payload.counts);
    })
    .addCase(dislikePost.fulfilled, (state, action) => {
      const post = state.entities[action.payload.id];
      if (post) applyReaction(post, action.payload.counts);
    })
    .addCase(savePost.fulfilled, (state, action) => {
      const post = state.entities[action.payload._id];
      if (!post) return;
      // Absent unless saved, as the server writes it.
      if (action.payload.savedByMe) post.savedByMe = true;
      else delete post.savedByMe;
    })
    .addCase(addComment.fulfilled, (state, action) => {
      const post = state.entities[action.payload.postId];
      if (post) post.commentsCount += 1;
    })
    .addCase(deleteComment.fulfilled, (state, action) => {
      const post = state.entities[action.payload.postId];
      if (post) post.commentsCount = Math.max(0, post.commentsCount - 1);
    });
});
