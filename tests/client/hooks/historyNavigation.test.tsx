import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { cameByHistory, watchHistory } from '../../../hooks/historyNavigation';
import { PostList } from '../../../features/posts/components/PostList';
import { listLeft } from '../../../features/posts/state/list';
import { fetchMorePosts, fetchPosts } from '../../../features/posts/state/thunks';
import { makeStore } from '../../../store';
import { buildPost, buildUser } from '../support/factories';
import { renderWithProviders, signedInState } from '../support/renderWithProviders';
import { server } from '../support/server';
import { postsIn } from '../../../features/posts/state/postsIn';

type Handler = () => void;

/** Next's router as the module uses it: its events, and the one `beforePopState` callback. */
function fakeRouter() {
  const handlers = new Map<string, Set<Handler>>();
  let beforePop: (state: unknown) => boolean = () => true;
  const router = {
    events: {
      on: (type: string, handler: Handler) =>
        void (handlers.get(type) ?? handlers.set(type, new Set()).get(type)!).add(handler),
      off: (type: string, handler: Handler) => void handlers.get(type)?.delete(handler),
      emit: (type: string) => handlers.get(type)?.forEach((handler) => handler()),
    },
    beforePopState: (callback: (state: unknown) => boolean) => void (beforePop = callback),
  };
  const emit = (type: string) => router.events.emit(type);
  return {
    router: router as unknown as Parameters<typeof watchHistory>[0],
    /** A link or `router.push`. */
    push: () => (emit('routeChangeStart'), emit('routeChangeComplete')),
    /** Back or Forward: the router asks `beforePopState`, then navigates. */
    back: () => (beforePop({}), emit('routeChangeStart'), emit('routeChangeComplete')),
  };
}

const me = buildUser();
const posts = Array.from({ length: 30 }, (_, i) => buildPost({ message: `Post number ${i}` }));

/** Everyone in three pages, each read counted. */
function serveEveryone() {
  const reads: string[] = [];
  server.use(
    http.get('/api/posts', ({ request }) => {
      const url = new URL(request.url);
      reads.push(url.search);
      const page = Number(url.searchParams.get('page') ?? '0');
      const link = page < 2 ? { Link: `</api/posts?feed=all&page=${page + 1}>; rel="next"` } : undefined;
      return HttpResponse.json(posts.slice(page * 10, page * 10 + 10), { headers: link });
    }),
  );
  return reads;
}

async function everyoneLoadedAndLeft() {
  const store = makeStore(signedInState(me));
  await store.dispatch(fetchPosts({ kind: 'feed', feed: 'all' }));
  await store.dispatch(fetchMorePosts());
  await store.dispatch(fetchMorePosts());
  store.dispatch(listLeft('feed:all', me._id));
  // The post page opened meanwhile does not touch the list; another list may have replaced it.
  await store.dispatch(fetchPosts({ kind: 'feed', feed: 'following' }));
  return store;
}

describe('Back to a list (issue 68)', () => {
  let stop: () => void = () => {};
  afterEach(() => stop());

  it('tells Back and Forward from links', () => {
    const history = fakeRouter();
    stop = watchHistory(history.router);
    history.push();
    expect(cameByHistory()).toBe(false);
    history.back();
    expect(cameByHistory()).toBe(true);
    history.push();
    expect(cameByHistory()).toBe(false);
  });

  it('shows the list kept with its three pages at once on Back, without reading page one again', async () => {
    const reads = serveEveryone();
    const store = await everyoneLoadedAndLeft();
    const history = fakeRouter();
    stop = watchHistory(history.router);
    history.back();
    reads.length = 0;
    renderWithProviders(<PostList source={{ kind: 'feed', feed: 'all' }} empty={null} />, { store });
    // Every post of the three pages is rendered in the first pass (not a couple per frame), so the
    // page is as tall as when the reader left it.
    expect(await screen.findByText('Post number 29')).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(30);
    expect(reads).toEqual([]);
  });

  it('reads page one afresh when the list is reached by a link, not Back', async () => {
    const reads = serveEveryone();
    const store = await everyoneLoadedAndLeft();
    const history = fakeRouter();
    stop = watchHistory(history.router);
    history.push();
    reads.length = 0;
    renderWithProviders(<PostList source={{ kind: 'feed', feed: 'all' }} empty={null} />, { store });
    await waitFor(() => expect(reads).toEqual(['?feed=all']));
    await waitFor(() => expect(postsIn(store.getState()).list.ids).toHaveLength(10));
  });
});
