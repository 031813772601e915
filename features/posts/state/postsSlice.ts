import { combineReducers, type Reducer, type UnknownAction } from '@reduxjs/toolkit';
import type { ActionStatus } from '../../../store/status';
import {
  addComment,
  createPost,
  deletePost,
  dislikeComment,
  dislikePost,
  editPost,
  fetchMorePosts,
  fetchPosts,
  likeComment,
  likePost,
  sourceKey,
} from './thunks';
import { actionStatus } from './actionStatus';
import currentPost, { type CurrentPost } from './currentPost';
import editor, { type EditorState } from './editor';
import list, { type PostList } from './list';
import stored, { postsAdapter, type StoredPosts } from './stored';

/**
 * The `posts` state: the stored posts, the list and the current post that show them, the editor,
 * and the loading/error slot of each tracked action.
 */
export interface PostsState {
  stored: StoredPosts;
  list: PostList;
  currentPost: CurrentPost;
  editor: EditorState;
  create: ActionStatus;
  edit: ActionStatus;
  delete: ActionStatus;
  like: ActionStatus;
  dislike: ActionStatus;
  addComment: ActionStatus;
  /** Liking and disliking a comment share this slot (spec section 4). */
  likeComment: ActionStatus;
}

const combined: Reducer<PostsState, UnknownAction, Partial<PostsState>> = combineReducers({
  stored,
  list,
  currentPost,
  editor,
  create: actionStatus([createPost], { resetOnEditor: true }),
  edit: actionStatus([editPost], { resetOnEditor: true }),
  delete: actionStatus([deletePost]),
  like: actionStatus([likePost]),
  dislike: actionStatus([dislikePost]),
  addComment: actionStatus([addComment]),
  likeComment: actionStatus([likeComment, dislikeComment]),
});

/** An answer for a list that is no longer the one on screen changes nothing, not even the posts it carries. */
function isStaleListAnswer(state: PostsState, action: UnknownAction): boolean {
  if (fetchPosts.fulfilled.match(action)) return state.list.key !== sourceKey(action.meta.arg);
  if (fetchMorePosts.fulfilled.match(action)) return state.list.key !== action.payload.key;
  return false;
}

/** A post stays stored while the list, the current post or the editor shows it. */
function dropUnshown(state: PostsState): PostsState {
  const shown = new Set(state.list.ids);
  if (state.currentPost.id) shown.add(state.currentPost.id);
  if (state.editor.postId) shown.add(state.editor.postId);
  const unshown = state.stored.ids.filter((id) => !shown.has(id));
  return unshown.length ? { ...state, stored: postsAdapter.removeMany(state.stored, unshown) } : state;
}

export default function postsReducer(state: PostsState | undefined, action: UnknownAction): PostsState {
  if (state && isStaleListAnswer(state, action)) return state;
  const next = combined(state, action);
  const unchanged =
    state &&
    next.stored === state.stored &&
    next.list.ids === state.list.ids &&
    next.currentPost.id === state.currentPost.id &&
    next.editor.postId === state.editor.postId;
  return unchanged ? next : dropUnshown(next);
}

// store/firstLoad.ts builds a first load's state with these.
export { fetchPost, fetchPosts, sourceKey, type PostSource } from './thunks';
