import { act, type ReactElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { ThemeProvider } from 'styled-components';
import { IntlProvider } from 'use-intl/react';
import { ExplorePage } from '../../../features/explore';
import { PostDetail } from '../../../features/posts/components/PostDetail';
import { HomeFeed } from '../../../features/posts/components/HomeFeed';
import { selectPostList } from '../../../features/posts/state/selectors';
import { ProfileView } from '../../../features/profile/components/ProfileView';
import { fetchLoggedUser } from '../../../features/auth/state/authSlice';
import { fetchPost, fetchPosts } from '../../../features/posts/state/thunks';
import { fetchProfile } from '../../../features/profile/state/userSlice';
import type { FirstLoad } from '../../../lib/firstLoad';
import { makeStore, type AppStore } from '../../../store';
import { pageIntl } from '../../../lib/i18n/pageIntl';
import { firstLoadState, makeStoreFrom } from '../../../store/firstLoad';
import { appTheme } from '../../../themes';
import { buildComment, buildPost, buildProfile, buildUser } from '../support/factories';
import { http, HttpResponse } from 'msw';
import { server } from '../support/server';
import { postsIn } from '../../../features/posts/state/postsIn';

const viewer = buildUser({ username: 'viewer' });
const posts = [
  buildPost({ message: 'First of the feed' }),
  buildPost({ message: 'Second of the feed' }),
  buildPost({ message: 'Third' }),
];
const profile = buildProfile({ username: 'Ann' });

const cases: { name: string; data: FirstLoad; ui: ReactElement; shows: string[] }[] = [
  {
    name: 'home',
    data: {
      user: viewer,
      unread: 3,
      page: {
        kind: 'feed',
        feed: 'following',
        posts: { items: posts, next: '/api/posts?feed=following&cursor=x&limit=12' },
      },
    },
    ui: <HomeFeed />,
    shows: ['First of the feed', 'Second of the feed'],
  },
  {
    name: 'post',
    data: {
      user: viewer,
      unread: 0,
      page: {
        kind: 'post',
        post: { ...posts[0], comments: [buildComment({ message: 'A comment' })] },
        commentsNext: null,
      },
    },
    ui: <PostDetail id={posts[0]._id} />,
    shows: ['First of the feed', 'A comment'],
  },
  {
    name: 'explore',
    data: {
      user: viewer,
      unread: 0,
      page: {
        kind: 'explore',
        explore: { posts, tags: [], people: [] },
        postsNext: `/api/explore/posts?cursor=${posts[2]._id}&limit=12`,
      },
    },
    ui: <ExplorePage initial={{ posts, tags: [], people: [] }} />,
    shows: ['First of the feed', 'Second of the feed'],
  },
  {
    name: 'profile',
    data: { user: viewer, unread: 0, page: { kind: 'profile', profile, posts: { items: posts, next: null } } },
    // The route's spelling of the name may differ in case.
    ui: <ProfileView username="ann" />,
    shows: ['Ann'],
  },
];

/** As pages/_app.tsx wraps a page: its language's messages (English), the store and the theme. */
function withProviders(store: ReturnType<typeof makeStoreFrom>, ui: ReactElement) {
  const intl = pageIntl('en');
  return (
    <IntlProvider locale={intl.language} messages={intl.messages}>
      <Provider store={store}>
        <ThemeProvider theme={appTheme}>{ui}</ThemeProvider>
      </Provider>
    </IntlProvider>
  );
}

describe('pages the server rendered with their first data', () => {
  it('start the store where the client reads would have left it', () => {
    const state = makeStoreFrom(cases[0].data).getState();
    expect(state.auth).toMatchObject({ user: viewer, session: 'loggedIn' });
    // The bells' badge is in the first paint (issue 35): the count the server read.
    expect(state.notifications).toEqual({ unread: 3 });
    expect(selectPostList(state)).toMatchObject({
      key: 'feed:following',
      status: 'done',
      items: posts,
      next: cases[0].data.page!.kind === 'feed' ? '/api/posts?feed=following&cursor=x&limit=12' : null,
    });
    expect(state.firstLoad.fresh).toEqual(['list:feed:following']);
    expect(makeStoreFrom(null).getState().auth.session).toBe('loading');
  });

  it("come in as the store's preloaded state, and nothing else changes", () => {
    for (const { data } of cases) {
      expect(makeStoreFrom(data).getState()).toEqual({ ...makeStore().getState(), ...firstLoadState(data) });
    }
  });

  // The client's own reads of the same answers (the API as the server answered it) reach the same state.
  for (const { name, data } of cases) {
    it(`${name}: the preloaded state is the one the client's own reads reach`, async () => {
      const page = data.page!;
      server.use(
        http.get('/api/auth/getLoggedUser', () => HttpResponse.json(data.user)),
        http.get('/api/posts', () =>
          HttpResponse.json(page.kind === 'feed' ? page.posts.items : [], {
            headers: page.kind === 'feed' && page.posts.next ? { Link: `<${page.posts.next}>; rel="next"` } : {},
          }),
        ),
        http.get('/api/users/:name/posts', () => HttpResponse.json(page.kind === 'profile' ? page.posts.items : [])),
        http.get('/api/users/:name', () => HttpResponse.json({ user: page.kind === 'profile' ? page.profile : null })),
        http.get('/api/posts/:id', () => HttpResponse.json(page.kind === 'post' ? page.post : null)),
        http.get('/api/explore', () =>
          HttpResponse.json(page.kind === 'explore' ? page.explore : null, {
            headers: page.kind === 'explore' && page.postsNext ? { Link: `<${page.postsNext}>; rel="next"` } : {},
          }),
        ),
      );
      const client: AppStore = makeStore();
      await client.dispatch(fetchLoggedUser());
      if (page.kind === 'feed') await client.dispatch(fetchPosts({ kind: 'feed', feed: page.feed }));
      if (page.kind === 'profile') {
        await client.dispatch(fetchProfile({ username: page.profile.username }));
        await client.dispatch(fetchPosts({ kind: 'user', username: page.profile.username }));
      }
      if (page.kind === 'post') await client.dispatch(fetchPost(page.post._id));
      if (page.kind === 'explore') await client.dispatch(fetchPosts({ kind: 'explore' }));
      const preloaded = makeStoreFrom(data).getState();
      expect(preloaded.auth).toEqual(client.getState().auth);
      expect(preloaded.posts).toEqual(postsIn(client.getState()));
      // Which read was asked last is the client's own bookkeeping (`profileRead`), not the page's state.
      expect(preloaded.user).toEqual({ ...client.getState().user, profileRead: undefined });
    });
  }

  for (const { name, data, ui, shows } of cases) {
    it(`${name}: hydrates the server's HTML without a mismatch and without reading again`, async () => {
      const requests: string[] = [];
      const onRequest = ({ request }: { request: Request }) => requests.push(request.url);
      server.events.on('request:start', onRequest);
      const errors: unknown[] = [];
      const consoleError = vi.spyOn(console, 'error').mockImplementation((...args) => errors.push(args));

      const html = renderToString(withProviders(makeStoreFrom(data), ui));
      for (const text of shows) expect(html).toContain(text);
      const container = document.createElement('div');
      container.innerHTML = html;
      document.body.appendChild(container);
      const store = makeStoreFrom(data);
      await act(async () => {
        hydrateRoot(container, withProviders(store, ui), { onRecoverableError: (error) => errors.push(error) });
      });
      await act(() => new Promise((resolve) => setTimeout(resolve, 50)));

      for (const text of shows) expect(container.textContent).toContain(text);
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      // Taken once: a later visit of the same page reads afresh.
      expect(store.getState().firstLoad.fresh).toEqual([]);
      consoleError.mockRestore();
      server.events.removeListener('request:start', onRequest);
      container.remove();
    });
  }
});
