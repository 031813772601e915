import { http, HttpResponse } from 'msw';
import { fetchLoggedUser, login, logout } from '../../../features/auth/state/authSlice';
import { changeRelation, relationToasts } from '../../../features/profile/state/relations';
import {
  deleteComment,
  likePost,
  fetchMoreComments,
  fetchMorePosts,
  fetchPost,
  fetchPosts,
} from '../../../features/posts/state/thunks';
// The posts' toasts start when their slice joins the store, as the posts' screens load it.
import '../../../features/posts/state/postsSlice';
import { fetchProfile } from '../../../features/profile/state/userSlice';
import { TOAST_AUTH_ERROR_MS, TOAST_DEFAULT_MS } from '../../../lib/limits';
import { makeStore, type AppStore } from '../../../store';
import { buildPost, buildProfile, buildUser } from '../support/factories';
import { renderWithProviders, signedInState } from '../support/renderWithProviders';
import { useToasts } from '../../../store/toasts';
import { server } from '../support/server';

const fail =
  (status = 500) =>
  () =>
    HttpResponse.json({ message: 'Broken', code: 'Error' }, { status });
const toasts = (store: AppStore) => store.getState().toasts.map(({ message, kind, time }) => ({ message, kind, time }));

describe('toasts, one listener per action', () => {
  it('show nothing for the reads whose page shows the error, nor for the session lookup and logout', async () => {
    server.use(
      http.get('/api/posts', ({ request }) =>
        new URL(request.url).searchParams.get('cursor')
          ? fail()()
          : HttpResponse.json([buildPost()], {
              headers: { Link: '</api/posts?feed=all&cursor=x>; rel="next"' },
            }),
      ),
      http.get('/api/posts/tagged', fail()),
      http.get('/api/posts/p1', () =>
        HttpResponse.json(
          { ...buildPost({ _id: 'p1' }), comments: [] },
          {
            headers: { Link: '</api/posts/p1/comments?cursor=c>; rel="next"' },
          },
        ),
      ),
      http.get('/api/posts/p1/comments', fail()),
      http.get('/api/posts/missing', fail(404)),
      http.get('/api/users/nobody', fail(404)),
      http.get('/api/auth/getLoggedUser', fail(401)),
      http.post('/api/auth/logout', fail()),
    );
    const store = makeStore(signedInState(buildUser()));
    await store.dispatch(fetchPosts({ kind: 'feed', feed: 'all' }));
    expect((await store.dispatch(fetchMorePosts())).meta.requestStatus).toBe('rejected');
    expect((await store.dispatch(fetchPosts({ kind: 'tagged', tags: ['sea'] }))).meta.requestStatus).toBe('rejected');
    await store.dispatch(fetchPost('p1'));
    expect((await store.dispatch(fetchMoreComments())).meta.requestStatus).toBe('rejected');
    expect((await store.dispatch(fetchPost('missing'))).meta.requestStatus).toBe('rejected');
    expect((await store.dispatch(fetchProfile({ username: 'nobody' }))).meta.requestStatus).toBe('rejected');
    expect((await store.dispatch(fetchLoggedUser())).meta.requestStatus).toBe('rejected');
    expect((await store.dispatch(logout())).meta.requestStatus).toBe('rejected');
    expect(toasts(store)).toEqual([]);
  });

  it("show any other failure's message as an error toast, longer for sign-in", async () => {
    server.use(http.delete('/api/posts/p1/comments/c1', fail(403)), http.post('/api/auth/login', fail(401)));
    const store = makeStore(signedInState(buildUser()));
    await store.dispatch(deleteComment({ postId: 'p1', commentId: 'c1' }));
    await store.dispatch(login({ email: 'a@b.co', password: 'password1' }));
    expect(toasts(store)).toEqual([
      { message: 'Broken', kind: 'error', time: TOAST_DEFAULT_MS },
      { message: 'Broken', kind: 'error', time: TOAST_AUTH_ERROR_MS },
    ]);
  });

  it('of a sign-in go with its next try and its success; other toasts stay (issue 68, item 8)', async () => {
    let ok = false;
    server.use(
      http.delete('/api/posts/p1/comments/c1', fail(403)),
      http.post('/api/auth/login', () => (ok ? HttpResponse.json({ success: true }) : fail(401)())),
      http.get('/api/auth/getLoggedUser', () => HttpResponse.json(buildUser())),
    );
    const store = makeStore(signedInState(buildUser()));
    await store.dispatch(deleteComment({ postId: 'p1', commentId: 'c1' }));
    await store.dispatch(login({ email: 'a@b.co', password: 'wrong' }));
    await store.dispatch(login({ email: 'a@b.co', password: 'wrong' }));
    expect(toasts(store)).toEqual([
      { message: 'Broken', kind: 'error', time: TOAST_DEFAULT_MS },
      { message: 'Broken', kind: 'error', time: TOAST_AUTH_ERROR_MS },
    ]);
    ok = true;
    await store.dispatch(login({ email: 'a@b.co', password: 'password1' }));
    expect(toasts(store)).toEqual([{ message: 'Broken', kind: 'error', time: TOAST_DEFAULT_MS }]);
  });

  it('show a success text when the rule says so: a reaction set, not one taken back', async () => {
    let myReaction: 'like' | null = 'like';
    server.use(
      http.patch('/api/posts/p1/like', () =>
        HttpResponse.json({ likesCount: myReaction ? 1 : 0, dislikesCount: 0, myReaction }),
      ),
    );
    const store = makeStore(signedInState(buildUser()));
    await store.dispatch(likePost('p1'));
    myReaction = null;
    await store.dispatch(likePost('p1'));
    expect(toasts(store)).toEqual([{ message: 'Liked', kind: 'success', time: TOAST_DEFAULT_MS }]);
  });

  it('of a feature loaded on demand start when its component mounts, once however many mount', async () => {
    server.use(
      http.patch('/api/users/bob/mute', () => HttpResponse.json({ user: buildProfile({ username: 'bob' }) })),
      http.patch('/api/users/bob/block', () => fail(403)()),
      http.get('/api/users/bob', () => HttpResponse.json({ user: buildProfile({ username: 'bob' }) })),
    );
    const store = makeStore(signedInState(buildUser()));
    // Not started yet: the store holds only its own features' rules.
    await store.dispatch(changeRelation({ username: 'bob', action: 'mute' }));
    expect(toasts(store)).toEqual([]);

    function UsesRelations() {
      useToasts(relationToasts);
      return null;
    }
    const { unmount } = renderWithProviders(
      <>
        <UsesRelations />
        <UsesRelations />
      </>,
      { store },
    );
    await store.dispatch(changeRelation({ username: 'bob', action: 'mute' }));
    // Kept after the component has gone: a call that ends on another page still says how it went.
    unmount();
    await store.dispatch(changeRelation({ username: 'bob', action: 'block' }));
    expect(toasts(store)).toEqual([
      { message: 'You muted bob', kind: 'success', time: TOAST_DEFAULT_MS },
      { message: 'Broken', kind: 'error', time: TOAST_DEFAULT_MS },
    ]);
  });
});
