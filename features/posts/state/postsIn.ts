import type { RootState } from '../../../store/index';
import type { FirstPosts } from './source';

/** The posts state (postsSlice.ts declares it on the store). */
type PostsState = NonNullable<RootState['posts']>;

/**
 * The `posts` state joins the store with the posts' code (postsSlice.ts, `inject`), not with every
 * page's first load: the landing page, settings and the rest never load it. A page navigated to
 * on the client renders before the store has seen an action since the slice joined, so reads go
 * through here and get the slice's initial state until then.
 */
const joined: { initial?: PostsState; firstLoad?: (posts: FirstPosts) => PostsState } = {};

/** Called once by postsSlice.ts when it joins the store. */
export function postsJoined(initial: PostsState, firstLoad: (posts: FirstPosts) => PostsState): void {
  joined.initial = initial;
  joined.firstLoad = firstLoad;
}

export function postsIn(state: RootState): PostsState {
  const posts = state.posts ?? joined.initial;
  if (!posts) throw new Error('The posts state was read before the posts code loaded');
  return posts;
}

/**
 * The `posts` state a page the server rendered starts with (store/firstLoad.ts). The pages that
 * show posts load the posts code before the app makes its store, so it is there.
 */
export function firstPostsState(posts: FirstPosts): PostsState {
  if (!joined.firstLoad) throw new Error('A first load of posts came before the posts code');
  return joined.firstLoad(posts);
}
