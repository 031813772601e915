/**
 * The store of a page the server rendered with its first data (lib/firstLoad.ts). The answers go in
 * as the store's preloaded state, each slice's part built by that slice (`signedInAs`,
 * `postsStateWith`, `showingProfile`), in the state the client's own reads of the same answers
 * would have reached; so the HTML the server renders and the first render that hydrates it are
 * the same. Built identically on the server and in the browser from the page's props.
 */
import { useCallback } from 'react';
import { useStore } from 'react-redux';
import type { FirstLoad } from '../lib/firstLoad';
import { makeStore, type AppStore, type RootState } from './index';
import { signedInAs } from '../features/auth/state/authSlice';
import { firstPostsState } from '../features/posts/state/postsIn';
import { sourceKey, type FirstPosts } from '../features/posts/state/source';
import { firstLoadKey, firstLoadTaken } from './firstLoadSlice';
import { showingProfile } from '../features/profile/state/profileState';

export { firstLoadKey };

/** The preloaded state of a first load: the viewer, and what the page shows first. */
export function firstLoadState(data: FirstLoad): Partial<RootState> {
  const state: Partial<RootState> = { auth: signedInAs(data.user), notifications: { unread: data.unread } };
  const fresh: string[] = [];
  const page = data.page;
  let posts: FirstPosts | null = null;
  if (page?.kind === 'feed') posts = { list: { source: { kind: 'feed', feed: page.feed }, page: page.posts } };
  if (page?.kind === 'tagged') posts = { list: { source: { kind: 'tagged', tags: page.tags }, page: page.posts } };
  if (page?.kind === 'saved') posts = { list: { source: { kind: 'saved' }, page: page.posts } };
  if (page?.kind === 'explore')
    posts = { list: { source: { kind: 'explore' }, page: { items: page.explore.posts, next: page.postsNext } } };
  if (page?.kind === 'profile') {
    state.user = showingProfile(page.profile);
    fresh.push(firstLoadKey.profile(page.profile.username));
    posts = { list: { source: { kind: 'user', username: page.profile.username }, page: page.posts } };
  }
  if (page?.kind === 'post') {
    posts = { post: { post: page.post, commentsNext: page.commentsNext } };
    fresh.push(firstLoadKey.post(page.post._id));
  }
  if (posts) {
    state.posts = firstPostsState(posts);
    if (posts.list) fresh.push(firstLoadKey.list(sourceKey(posts.list.source)));
  }
  state.firstLoad = { fresh };
  return state;
}

export function makeStoreFrom(data: FirstLoad | null): AppStore {
  return makeStore(data ? firstLoadState(data) : undefined);
}

/**
 * For a page component's first read: true (once) when the server already made it, so the
 * component skips asking again.
 */
export function useTakeFirstLoad(): (key: string) => boolean {
  const store = useStore.withTypes<AppStore>()();
  return useCallback(
    (key: string) => {
      if (!store.getState().firstLoad.fresh.includes(key)) return false;
      store.dispatch(firstLoadTaken(key));
      return true;
    },
    [store],
  );
}
