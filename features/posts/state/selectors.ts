import { createSelector } from '@reduxjs/toolkit';
import type { Post, PostWithComments } from '../../../lib/types';
import type { RootState } from '../../../store/index';
import { postsOf } from './postsSlice';

const selectStored = (state: RootState) => postsOf(state).stored.entities;
const selectList = (state: RootState) => postsOf(state).list;

/** The list on screen with its posts. */
export const selectPostList = createSelector([selectList, selectStored], (list, stored) => ({
  key: list.key,
  source: list.source,
  items: list.ids.map((id) => stored[id]).filter((post): post is Post => Boolean(post)),
  next: list.next,
  status: list.status,
  error: list.error,
}));

const selectCurrent = (state: RootState) => postsOf(state).currentPost;
const selectCurrentStored = (state: RootState) => {
  const { currentPost, stored } = postsOf(state);
  return currentPost.id ? stored.entities[currentPost.id] : undefined;
};

/** The post on its own page with its comments (null until it has loaded), and their paging. */
export const selectCurrentPost = createSelector([selectCurrent, selectCurrentStored], (current, post) => ({
  post: post ? ({ ...post, comments: current.comments } satisfies PostWithComments) : null,
  loading: current.loading,
  error: current.error,
  commentsNext: current.commentsNext,
  commentsLoading: current.commentsLoading,
}));
