/**
 * The store of a page the server rendered with its first data (lib/firstLoad.ts). It is built by
 * dispatching the same actions the client's own reads would have, so the state (and therefore the
 * HTML the server renders and the first render that hydrates it) is the one the client would have
 * reached by itself. Built identically on the server and in the browser from the page's props.
 */
import { useCallback } from 'react';
import { useStore } from 'react-redux';
import type { FirstLoad, ListPage } from '../lib/firstLoad';
import type { Post } from '../lib/types';
import { makeStore, type AppStore } from './index';
import { userReceived } from '../features/auth/authSlice';
import { fetchPost, fetchPosts, sourceKey, type PostSource } from '../features/posts/state/postsSlice';
import { firstLoadKey, firstLoadReceived, firstLoadTaken } from './firstLoadSlice';
import { fetchProfile } from '../features/profile/userSlice';

export { firstLoadKey };

const REQUEST_ID = 'server';

export function makeStoreFrom(data: FirstLoad | null): AppStore {
  const store = makeStore();
  if (!data) return store;
  const { dispatch } = store;
  dispatch(userReceived(data.user));
  const list = (source: PostSource, posts: ListPage<Post>) => {
    dispatch(fetchPosts.pending(REQUEST_ID, source));
    dispatch(fetchPosts.fulfilled(posts, REQUEST_ID, source));
    dispatch(firstLoadReceived(firstLoadKey.list(sourceKey(source))));
  };
  const page = data.page;
  if (page?.kind === 'feed') list({ kind: 'feed', feed: page.feed }, page.posts);
  if (page?.kind === 'tagged') list({ kind: 'tagged', tags: page.tags }, page.posts);
  if (page?.kind === 'profile') {
    const arg = { username: page.profile.username };
    dispatch(fetchProfile.pending(REQUEST_ID, arg));
    dispatch(fetchProfile.fulfilled(page.profile, REQUEST_ID, arg));
    dispatch(firstLoadReceived(firstLoadKey.profile(page.profile.username)));
    list({ kind: 'user', username: page.profile.username }, page.posts);
  }
  if (page?.kind === 'post') {
    dispatch(fetchPost.fulfilled({ post: page.post, commentsNext: page.commentsNext }, REQUEST_ID, page.post._id));
    dispatch(firstLoadReceived(firstLoadKey.post(page.post._id)));
  }
  return store;
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
