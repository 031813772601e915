import { http, HttpResponse } from 'msw';
import { makeStore, type AppStore } from '../../../../../store';
import { KEPT_LIST_MS, KEPT_LISTS_MAX, listLeft, listRestored } from '../../../../../features/posts/state/list';
import { selectPostList } from '../../../../../features/posts/state/selectors';
import { deletePost, fetchMorePosts, fetchPosts, type PostSource } from '../../../../../features/posts/state/thunks';
import type { Post } from '../../../../../lib/types';
import { buildPost, buildUser } from '../../../support/factories';
import { signedInState } from '../../../support/renderWithProviders';
import { server } from '../../../support/server';
import { postsIn } from '../../../../../features/posts/state/postsIn';

const everyone: PostSource = { kind: 'feed', feed: 'all' };
const following: PostSource = { kind: 'feed', feed: 'following' };
const ids = (store: AppStore) => selectPostList(store.getState()).items.map((post) => post._id);

/** Two pages for Everyone (a `Link` to the second), one for Following; counts the reads of each URL. */
function serve(pages: { all: [Post[], Post[]]; following: Post[] }) {
  const reads: string[] = [];
  server.use(
    http.get('/api/posts', ({ request }) => {
      const url = new URL(request.url);
      reads.push(url.search);
      if (url.searchParams.get('cursor') === 'two') return HttpResponse.json(pages.all[1]);
      if (url.searchParams.get('feed') === 'all')
        return HttpResponse.json(pages.all[0], { headers: { Link: '</api/posts?feed=all&cursor=two>; rel="next"' } });
      return HttpResponse.json(pages.following);
    }),
    http.delete('/api/posts/:id/manage', () => new HttpResponse(null, { status: 204 })),
  );
  return reads;
}

const made = () => ({ all: [[buildPost(), buildPost()], [buildPost()]] as [Post[], Post[]], following: [buildPost()] });

const me = buildUser();
let now = 1_000_000;
beforeEach(() => {
  now = 1_000_000;
  vi.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => vi.restoreAllMocks());

describe('lists kept for Back (issue 68)', () => {
  it('keeps a list left with all its pages, and Back makes it the list on screen again without reading', async () => {
    const pages = made();
    const reads = serve(pages);
    const store = makeStore(signedInState(me));
    await store.dispatch(fetchPosts(everyone));
    await store.dispatch(fetchMorePosts());
    const loaded = ids(store);
    expect(loaded).toHaveLength(3);

    store.dispatch(listLeft('feed:all', me._id));
    // Another list replaces it on screen (Following, a profile); its posts stay stored for Back.
    await store.dispatch(fetchPosts(following));
    expect(ids(store)).toEqual(pages.following.map((p) => p._id));
    for (const id of loaded) expect(postsIn(store.getState()).stored.entities[id]).toBeDefined();

    now += KEPT_LIST_MS - 1;
    const readsBefore = reads.length;
    store.dispatch(listRestored('feed:all', me._id));
    expect(ids(store)).toEqual(loaded);
    expect(postsIn(store.getState()).list).toMatchObject({ key: 'feed:all', next: null, status: 'done' });
    expect(reads).toHaveLength(readsBefore);
  });

  it('keeps the next page’s cursor, so the restored list goes on loading where it stopped', async () => {
    const pages = made();
    serve(pages);
    const store = makeStore(signedInState(me));
    await store.dispatch(fetchPosts(everyone));
    store.dispatch(listLeft('feed:all', me._id));
    await store.dispatch(fetchPosts(following));
    store.dispatch(listRestored('feed:all', me._id));
    expect(postsIn(store.getState()).list.next).toBe('/api/posts?feed=all&cursor=two');
    await store.dispatch(fetchMorePosts());
    expect(ids(store)).toEqual([...pages.all[0], ...pages.all[1]].map((p) => p._id));
  });

  it('restores nothing to another account signed in in the same tab', async () => {
    serve(made());
    const store = makeStore(signedInState(me));
    await store.dispatch(fetchPosts(everyone));
    store.dispatch(listLeft('feed:all', me._id));
    await store.dispatch(fetchPosts(following));
    const before = postsIn(store.getState()).list;
    store.dispatch(listRestored('feed:all', buildUser()._id));
    expect(postsIn(store.getState()).list).toBe(before);
  });

  it('restores nothing once the list was left longer than KEPT_LIST_MS ago', async () => {
    serve(made());
    const store = makeStore(signedInState(me));
    await store.dispatch(fetchPosts(everyone));
    store.dispatch(listLeft('feed:all', me._id));
    await store.dispatch(fetchPosts(following));
    const before = postsIn(store.getState()).list;
    now += KEPT_LIST_MS + 1;
    store.dispatch(listRestored('feed:all', me._id));
    expect(postsIn(store.getState()).list).toBe(before);
  });

  it('forgets a kept list when its first page is read afresh, and keeps no list still loading', async () => {
    serve(made());
    const store = makeStore(signedInState(me));
    await store.dispatch(fetchPosts(everyone));
    store.dispatch(listLeft('feed:all', me._id));
    expect(Object.keys(postsIn(store.getState()).kept)).toEqual(['feed:all']);
    const reading = store.dispatch(fetchPosts(everyone));
    expect(postsIn(store.getState()).kept).toEqual({});
    // Left while its first page is on its way: nothing to show again.
    store.dispatch(listLeft('feed:all', me._id));
    expect(postsIn(store.getState()).kept).toEqual({});
    await reading;
  });

  it('takes a deleted post out of the kept lists, and keeps the last few lists left', async () => {
    const pages = made();
    serve(pages);
    const store = makeStore(signedInState(me));
    await store.dispatch(fetchPosts(everyone));
    store.dispatch(listLeft('feed:all', me._id));
    await store.dispatch(deletePost(pages.all[0][0]._id));
    expect(postsIn(store.getState()).kept['feed:all'].ids).toEqual([pages.all[0][1]._id]);

    server.use(http.get('/api/posts/tagged', () => HttpResponse.json([buildPost()])));
    for (let i = 0; i < KEPT_LISTS_MAX + 1; i += 1) {
      now += 1;
      await store.dispatch(fetchPosts({ kind: 'tagged', tags: [`tag${i}`] }));
      store.dispatch(listLeft(`tagged:tag${i}`, me._id));
    }
    const kept = Object.keys(postsIn(store.getState()).kept);
    expect(kept).toHaveLength(KEPT_LISTS_MAX);
    expect(kept).not.toContain('feed:all');
    // The posts of a list no longer kept are no longer stored.
    expect(postsIn(store.getState()).stored.entities[pages.all[0][1]._id]).toBeUndefined();
  });
});
