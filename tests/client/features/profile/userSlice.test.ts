import { http, HttpResponse } from 'msw';
import { TEXTS } from '../../../../lib/texts';
import { makeStore } from '../../../../store';
import {
  fetchProfile,
  followUser,
  unfollowUser,
  selectFollowState,
} from '../../../../features/profile/state/userSlice';
import { buildProfile, buildUser } from '../../support/factories';
import { signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

describe('follow and unfollow', () => {
  it('goes idle → loading → done, shows the spec text and refreshes both users', async () => {
    const me = buildUser();
    const bob = buildProfile({ username: 'bob' });
    const calls: string[] = [];
    server.use(
      http.patch('/api/users/bob/follow', async ({ request }) => {
        calls.push(`follow ${JSON.stringify(await request.json())}`);
        return HttpResponse.json({ user: { ...bob, followedByMe: true, followersCount: 1 } });
      }),
      http.get('/api/auth/getLoggedUser', () => {
        calls.push('getLoggedUser');
        return HttpResponse.json({ ...me, followingCount: 1 });
      }),
      http.get('/api/users/bob', () => {
        calls.push('getUser bob');
        return HttpResponse.json({ user: { ...bob, followedByMe: true, followersCount: 1 } });
      }),
    );
    const store = makeStore(signedInState(me));
    expect(selectFollowState(store.getState()).follow).toEqual({ status: 'idle', error: null });
    const pending = store.dispatch(followUser('bob'));
    expect(selectFollowState(store.getState()).follow).toEqual({ status: 'loading', error: null });
    await pending;
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    expect(selectFollowState(store.getState()).follow.status).toBe('done');
    expect(calls).toEqual(expect.arrayContaining([`follow {"userId":"${me._id}"}`, 'getLoggedUser', 'getUser bob']));
    expect(store.getState().toasts[0].message).toBe(TEXTS.following('bob'));
    expect(TEXTS.following('bob')).toBe('You are following bob');
    await vi.waitFor(() => expect(store.getState().auth.user?.followingCount).toBe(1));
  });

  it('unfollow shows "{username} is no longer followed" and refreshes both users', async () => {
    const refreshed: string[] = [];
    server.use(
      http.patch('/api/users/bob/unfollow', () => HttpResponse.json({ user: buildProfile({ username: 'bob' }) })),
      http.get('/api/auth/getLoggedUser', () => {
        refreshed.push('getLoggedUser');
        return HttpResponse.json(buildUser());
      }),
      http.get('/api/users/bob', () => {
        refreshed.push('getUser bob');
        return HttpResponse.json({ user: buildProfile({ username: 'bob' }) });
      }),
    );
    const store = makeStore(signedInState(buildUser()));
    await store.dispatch(unfollowUser('bob'));
    expect(selectFollowState(store.getState()).unfollow.status).toBe('done');
    expect(store.getState().toasts[0].message).toBe('bob is no longer followed');
    // The refreshes run after the answer; waiting for them also keeps them out of the next test.
    await vi.waitFor(() => expect(refreshed.sort()).toEqual(['getLoggedUser', 'getUser bob']));
  });

  it('fails with "User are not logged in" without a user', async () => {
    const store = makeStore();
    await store.dispatch(followUser('bob'));
    expect(selectFollowState(store.getState()).follow).toEqual({ status: 'failed', error: TEXTS.notLoggedIn });
  });

  it("stores the server's message when it fails", async () => {
    server.use(
      http.patch('/api/users/me/follow', () =>
        HttpResponse.json({ message: 'You cannot follow yourself', code: 'BadRequest' }, { status: 400 }),
      ),
    );
    const store = makeStore(signedInState(buildUser()));
    await store.dispatch(followUser('me'));
    expect(selectFollowState(store.getState()).follow).toEqual({
      status: 'failed',
      error: 'You cannot follow yourself',
    });
    expect(store.getState().toasts[0].message).toBe('You cannot follow yourself');
  });
});

describe('reading a profile', () => {
  it('keeps the last one asked when an earlier read answers after it (Back from a profile before it came)', async () => {
    let answerFan: () => void = () => {};
    const fanAsked = new Promise<void>((resolve) => {
      server.use(
        http.get('/api/users/fan', async () => {
          resolve();
          await new Promise<void>((answer) => (answerFan = answer));
          return HttpResponse.json({ user: buildProfile({ username: 'fan' }) });
        }),
        http.get('/api/users/star', () => HttpResponse.json({ user: buildProfile({ username: 'star' }) })),
      );
    });
    const store = makeStore(signedInState(buildUser()));
    const fan = store.dispatch(fetchProfile({ username: 'fan' }));
    await fanAsked;
    await store.dispatch(fetchProfile({ username: 'star' }));
    answerFan();
    await fan;
    expect(selectFollowState(store.getState()).profile.data?.username).toBe('star');
    expect(selectFollowState(store.getState()).profile.loading).toBe(false);
  });
});
