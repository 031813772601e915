import { combineReducers, type Reducer, type UnknownAction } from '@reduxjs/toolkit';
import { addLazyListeners } from '../../../store/actionListeners';
import { rootReducer, type RootState } from '../../../store/index';
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
  postsToasts,
} from './thunks';
import { postsIn, postsJoined } from './postsIn';
import { sourceKey, type FirstPosts } from './source';
import { actionStatus } from './actionStatus';
import currentPost, { type CurrentPost } from './currentPost';
import editor, { type EditorState } from './editor';
import list, { emptyList, keptReducer, listRestored, restoredList, type KeptList, type PostList } from './list';
import stored, { postsAdapter, type StoredPosts } from './stored';

/**
 * The `posts` state: the stored posts, the list and the current post that show them, the editor,
 * and the loading/error slot of each tracked action.
 */
export interface PostsState {
  stored: StoredPosts;
  list: PostList;
  /** The lists the reader left, by source key, for Back (`listLeft`, `listRestored`). */
  kept: Record<string, KeptList>;
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

type CombinedState = Omit<PostsState, 'kept'>;

const combined: Reducer<CombinedState, UnknownAction, Partial<CombinedState>> = combineReducers({
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

/** A post stays stored while the list, a kept list, the current post or the editor shows it. */
function dropUnshown(state: PostsState): PostsState {
  const shown = new Set(state.list.ids);
  for (const kept of Object.values(state.kept)) for (const id of kept.ids) shown.add(id);
  if (state.currentPost.id) shown.add(state.currentPost.id);
  if (state.editor.postId) shown.add(state.editor.postId);
  const unshown = state.stored.ids.filter((id) => !shown.has(id));
  return unshown.length ? { ...state, stored: postsAdapter.removeMany(state.stored, unshown) } : state;
}

export default function postsReducer(state: PostsState | undefined, action: UnknownAction): PostsState {
  if (state && isStaleListAnswer(state, action)) return state;
  if (state && listRestored.match(action)) {
    const restored = restoredList(state.list, state.kept, action.payload);
    return restored === state.list ? state : { ...state, list: restored };
  }
  const { kept: keptBefore, ...rest } = state ?? { kept: undefined };
  const combinedNext = combined(state ? (rest as CombinedState) : undefined, action);
  // Keeping reads the list as it was before the action (the one the reader is leaving).
  const kept = keptReducer(keptBefore, state?.list ?? emptyList(), action);
  if (state && combinedNext === rest && kept === keptBefore) return state;
  const next: PostsState = { ...combinedNext, kept };
  const unchanged =
    state &&
    next.kept === state.kept &&
    next.stored === state.stored &&
    next.list.ids === state.list.ids &&
    next.currentPost.id === state.currentPost.id &&
    next.editor.postId === state.editor.postId;
  return unchanged ? next : dropUnshown(next);
}

/**
 * The `posts` state a page the server rendered starts with (store/firstLoad.ts): the state the
 * client's own reads of the same answers reach (tests/client/store/firstLoad.test.tsx compares them).
 */
export function postsStateWith({ list, post }: FirstPosts): PostsState {
  const state: PostsState = { ...combined(undefined, { type: 'posts/firstLoad' }), kept: {} };
  let stored = state.stored;
  if (list) {
    stored = postsAdapter.setMany(stored, list.page.items);
    state.list = {
      ...state.list,
      key: sourceKey(list.source),
      source: list.source,
      ids: list.page.items.map((item) => item._id),
      next: list.page.next,
      status: 'done',
    };
  }
  if (post) {
    // The comments belong to the current post's state, not to the post.
    const { comments, ...rest } = post.post;
    stored = postsAdapter.setOne(stored, rest);
    state.currentPost = { ...state.currentPost, id: rest._id, comments, commentsNext: post.commentsNext };
  }
  return { ...state, stored };
}

declare module '../../../store/index' {
  // Adds `posts` to RootState once the posts' code has loaded (read it with `postsIn`).
  export interface LazyLoadedSlices {
    posts: PostsState;
  }
}

// Only the pages that show posts (and the composer) load this module: the state, its reducer and
// thunks stay out of every page's first load; their toasts start with it.
rootReducer.inject({ reducerPath: 'posts', reducer: postsReducer });
addLazyListeners(postsToasts);
postsJoined(postsReducer(undefined, { type: 'posts/joined' }), postsStateWith);

/**
 * The posts' state in the store, for the screens that show posts: reading it through this module
 * makes their code load this one, which puts the slice in the store (postsIn.ts).
 */
export function postsOf(state: RootState): PostsState {
  return postsIn(state);
}

export { postsToasts, sourceKey, type PostSource } from './thunks';
export type { FirstPosts };
