import { createSelector } from '@reduxjs/toolkit';
import type { Post, PostWithComments } from '../../../lib/types';
import type { RootState } from '../../../store/index';

const selectStored = (state: RootState) => state.posts.stored.entities;
const selectList = (state: RootState) => state.posts.list;

/** The list on screen with its posts. */
export const selectPostList = createSelector([selectList, selectStored], (list, stored) => ({
  key: list.key,
  source: list.source,
  items: list.ids.map((id) => stored[id]).filter((post): post is Post => Boolean(post)),
  next: list.next,
  status: list.status,
  error: list.error,
}));

const selectCurrent = (state: RootState) => state.posts.currentPost;
const selectCurrentStored = (state: RootState) => {
  const id = state.posts.currentPost.id;
  return id ? state.posts.stored.entities[id] : undefined;
};

/** The post on its own page with its comments (null until it has loaded), and their paging. */
export const selectCurrentPost = createSelector([selectCurrent, selectCurrentStored], (current, post) => ({
  post: post ? ({ ...post, comments: current.comments } satisfies PostWithComments) : null,
  loading: current.loading,
  error: current.error,
  commentsNext: current.commentsNext,
  commentsLoading: current.commentsLoading,
}));

const selectEditorState = (state: RootState) => state.posts.editor;
const selectEditedPost = (state: RootState) => {
  const id = state.posts.editor.postId;
  return id ? state.posts.stored.entities[id] : undefined;
};

/** The editor: open or not, and the post it edits (null for a new post). */
export const selectEditor = createSelector([selectEditorState, selectEditedPost], (editor, post) => ({
  open: editor.open,
  post: post ?? null,
}));
