import { createAction, createReducer } from '@reduxjs/toolkit';
import { deletePost, fetchMorePosts, fetchPosts, messageOf, sourceKey, type PostSource } from './thunks';

/** The list of posts on screen (a feed, a tag, a profile): ids into the stored posts, and its paging. */
export interface PostList {
  key: string | null;
  source: PostSource | null;
  ids: string[];
  next: string | null;
  status: 'idle' | 'loading' | 'loadingMore' | 'done' | 'failed';
  error: string | null;
}

/** A list the reader left (for a post, say), kept so that Back shows it again as it was. */
export interface KeptList {
  source: PostSource;
  ids: string[];
  next: string | null;
  /** When the reader left it (ms since the epoch). */
  leftAt: number;
  /** Whose list it is (the signed-in user's id): another account signed in in the same tab never gets it. */
  viewer: string | null;
}

/** How long a list left is kept for Back: past it, coming back reads its first page afresh. */
export const KEPT_LIST_MS = 10 * 60_000;

/** How many left lists are kept at most (the ones left last). */
export const KEPT_LISTS_MAX = 4;

export const emptyList = (): PostList => ({
  key: null,
  source: null,
  ids: [],
  next: null,
  status: 'idle',
  error: null,
});

/** The reader leaves the list on screen (its page unmounts, or another tab replaces it): it is kept as it is. */
export const listLeft = createAction('posts/listLeft', (key: string, viewer: string | null) => ({
  payload: { key, viewer, at: Date.now() },
}));

/**
 * Back to a list kept less than `KEPT_LIST_MS` ago: it is the list on screen again, its pages as
 * they were; false when there is none (then the page reads its first page).
 */
export const listRestored = createAction('posts/listRestored', (key: string, viewer: string | null) => ({
  payload: { key, viewer, at: Date.now() },
}));

/** The kept list for `key` that Back may still show to `viewer` at `now`, if any. */
export function keptListFor(
  kept: Record<string, KeptList>,
  key: string,
  viewer: string | null,
  now: number,
): KeptList | null {
  const list = kept[key];
  return list && list.viewer === viewer && now - list.leftAt <= KEPT_LIST_MS ? list : null;
}

/** The lists kept, the one just left among them; the oldest beyond `KEPT_LISTS_MAX` and those past their time go. */
function keep(kept: Record<string, KeptList>, key: string, list: KeptList): Record<string, KeptList> {
  const entries = Object.entries({ ...kept, [key]: list })
    .filter(([, item]) => list.leftAt - item.leftAt <= KEPT_LIST_MS)
    .sort(([, a], [, b]) => b.leftAt - a.leftAt)
    .slice(0, KEPT_LISTS_MAX);
  return Object.fromEntries(entries);
}

export const list = createReducer(emptyList(), (builder) => {
  builder
    .addCase(fetchPosts.pending, (list, action) => {
      const key = sourceKey(action.meta.arg);
      // A refresh of the same list keeps the posts on screen; a new list starts blank.
      if (list.key !== key) return { ...emptyList(), key, source: action.meta.arg, status: 'loading' };
      list.status = 'loading';
      list.error = null;
    })
    .addCase(fetchPosts.fulfilled, (list, action) => {
      if (list.key !== sourceKey(action.meta.arg)) return;
      list.ids = action.payload.items.map((post) => post._id);
      list.next = action.payload.next;
      list.status = 'done';
    })
    .addCase(fetchPosts.rejected, (list, action) => {
      if (list.key !== sourceKey(action.meta.arg)) return;
      list.status = 'failed';
      list.error = messageOf(action);
    })
    .addCase(fetchMorePosts.pending, (list) => {
      list.status = 'loadingMore';
    })
    .addCase(fetchMorePosts.fulfilled, (list, action) => {
      if (list.key !== action.payload.key) return;
      const known = new Set(list.ids);
      list.ids.push(...action.payload.page.items.map((post) => post._id).filter((id) => !known.has(id)));
      list.next = action.payload.page.next;
      list.status = 'done';
    })
    .addCase(fetchMorePosts.rejected, (list, action) => {
      list.status = 'done';
      list.error = messageOf(action);
      // Stop the infinite scroll from retrying in a loop; a reload starts over.
      list.next = null;
    })
    .addCase(deletePost.fulfilled, (list, action) => {
      list.ids = list.ids.filter((id) => id !== action.payload);
    });
});

/**
 * The lists left, by source key. `listLeft` keeps the list on screen when it is that key's and has
 * loaded (a page still loading is not kept: Back then reads afresh); reading a list's first page
 * again forgets its kept copy; a deleted post leaves every kept list.
 */
export function keptReducer(
  kept: Record<string, KeptList> | undefined,
  onScreen: PostList,
  action: { type: string; payload?: unknown; meta?: unknown },
): Record<string, KeptList> {
  const state = kept ?? {};
  if (listLeft.match(action)) {
    const { key, at, viewer } = action.payload;
    if (onScreen.key !== key || !onScreen.source || onScreen.status === 'loading' || onScreen.status === 'failed')
      return state;
    // A page of more posts still on its way is not kept: Back shows what had arrived, and may load it again.
    return keep(state, key, { source: onScreen.source, ids: onScreen.ids, next: onScreen.next, leftAt: at, viewer });
  }
  if (fetchPosts.pending.match(action)) {
    const key = sourceKey(action.meta.arg);
    if (!(key in state)) return state;
    const { [key]: _forgotten, ...rest } = state;
    return rest;
  }
  if (deletePost.fulfilled.match(action)) {
    const id = action.payload;
    if (!Object.values(state).some((item) => item.ids.includes(id))) return state;
    return Object.fromEntries(
      Object.entries(state).map(([key, item]) => [key, { ...item, ids: item.ids.filter((other) => other !== id) }]),
    );
  }
  return state;
}

/** The list on screen after `listRestored`: the kept one, loaded; unchanged when there is none to restore. */
export function restoredList(
  onScreen: PostList,
  kept: Record<string, KeptList>,
  { key, viewer, at }: { key: string; viewer: string | null; at: number },
): PostList {
  const found = keptListFor(kept, key, viewer, at);
  if (!found) return onScreen;
  return { key, source: found.source, ids: found.ids, next: found.next, status: 'done', error: null };
}

export default list;
