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
  sourceKey,
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

const HOME = sourceKey({ kind: 'feed', feed: 'following' });

/**
 * Posts read elsewhere than the home feed (their page, a tag's list) never carry the home feed's
 * `reason` (issue 73): the stored post keeps the one it has, so Back to Home shows it still. The
 * home feed's own reads say it afresh.
 */
function keepReasons(state: StoredPosts, posts: Post[], fromHome: boolean): Post[] {
  if (fromHome) return posts;
  return posts.map((post) => {
    const reason = post.reason ?? state.entities[post._id]?.reason;
    return reason && !post.reason ? { ...post, reason } : post;
  });
}

export default createReducer(postsAdapter.getInitialState(), (builder) => {
  builder
    .addCase(fetchPosts.fulfilled, (state, action) => {
      postsAdapter.setMany(state, keepReasons(state, action.payload.items, sourceKey(action.meta.arg) === HOME));
    })
    .addCase(fetchMorePosts.fulfilled, (state, action) => {
      postsAdapter.setMany(state, keepReasons(state, action.payload.page.items, action.payload.key === HOME));
    })
    .addCase(fetchPost.fulfilled, (state, action) => {
      // The comments belong to the current post's state, not to the post.
      const { comments: _comments, ...post } = action.payload.post;
      postsAdapter.setOne(state, keepReasons(state, [post], false)[0]);
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
