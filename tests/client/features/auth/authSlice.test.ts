import { http, HttpResponse } from 'msw';
import { TOAST_AUTH_ERROR_MS, TOAST_DEFAULT_MS } from '../../../../lib/limits';
import { TEXTS } from '../../../../lib/texts';
import { makeStore, type AppStore } from '../../../../store';
import {
  fetchLoggedUser,
  login,
  logout,
  signup,
  updateAccount,
  updateProfile,
} from '../../../../features/auth/state/authSlice';
import { buildUser } from '../../support/factories';
import { signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const unauthorized = () => HttpResponse.json({ message: 'Not signed in', code: 'Unauthorized' }, { status: 401 });

describe('session', () => {
  it("is 'loading' while the logged user is fetched, then signed in", async () => {
    const user = buildUser();
    server.use(http.get('/api/auth/getLoggedUser', () => HttpResponse.json(user)));
    const store = makeStore();
    const pending = store.dispatch(fetchLoggedUser());
    expect(store.getState().auth.session).toBe('loading');
    await pending;
    expect(store.getState().auth).toMatchObject({ session: 'loggedIn', user });
  });

  it('treats a fetch error as logged out, without the refresh rule', async () => {
    let refreshes = 0;
    server.use(
      http.get('/api/auth/getLoggedUser', unauthorized),
      http.post('/api/auth/refresh', () => {
        refreshes += 1;
        return unauthorized();
      }),
    );
    const store = makeStore();
    await store.dispatch(fetchLoggedUser());
    expect(store.getState().auth).toMatchObject({ session: 'loggedOut', user: null });
    expect(refreshes).toBe(0);
  });
});

describe('login', () => {
  it('sets loading and clears the error while pending, then re-fetches the user', async () => {
    const user = buildUser();
    server.use(
      http.post('/api/auth/login', () => HttpResponse.json({ success: true })),
      http.get('/api/auth/getLoggedUser', () => HttpResponse.json(user)),
    );
    const store = makeStore({ auth: { ...makeStore().getState().auth, login: { loading: false, error: 'old' } } });
    const pending = store.dispatch(login({ email: user.email, password: 'password1' }));
    expect(store.getState().auth.login).toEqual({ loading: true, error: null });
    await pending;
    expect(store.getState().auth.login).toEqual({ loading: false, error: null });
    expect(store.getState().auth.user).toEqual(user);
  });

  it("stores the server's message and shows it for 4000 ms", async () => {
    server.use(
      http.post('/api/auth/login', () =>
        HttpResponse.json({ message: TEXTS.invalidCredentials, code: 'Unauthorized' }, { status: 401 }),
      ),
    );
    const store = makeStore();
    await store.dispatch(login({ email: 'a@b.co', password: 'wrong-password' }));
    expect(store.getState().auth.login).toEqual({ loading: false, error: TEXTS.invalidCredentials });
    expect(store.getState().toasts).toEqual([
      expect.objectContaining({ message: TEXTS.invalidCredentials, time: TOAST_AUTH_ERROR_MS }),
    ]);
  });
});

describe('signup', () => {
  it("stores the server's message and shows it for 4000 ms", async () => {
    server.use(
      http.post('/api/auth/signup', () =>
        HttpResponse.json({ message: 'Username is taken', code: 'Conflict' }, { status: 409 }),
      ),
    );
    const store = makeStore();
    const pending = store.dispatch(signup({ username: 'taken', email: 'a@b.co', password: 'password1' }));
    expect(store.getState().auth.signup.loading).toBe(true);
    await pending;
    expect(store.getState().auth.signup).toEqual({ loading: false, error: 'Username is taken' });
    expect(store.getState().toasts[0]).toMatchObject({
      message: 'Username is taken',
      time: TOAST_AUTH_ERROR_MS,
    });
  });

  it('succeeds without signing in', async () => {
    server.use(http.post('/api/auth/signup', () => HttpResponse.json({ success: true }, { status: 201 })));
    const store = makeStore();
    const result = await store.dispatch(signup({ username: 'newbie', email: 'n@b.co', password: 'password1' }));
    expect(signup.fulfilled.match(result)).toBe(true);
    expect(store.getState().auth.signup).toEqual({ loading: false, error: null });
  });
});

describe('logout', () => {
  it('re-fetches and clears the user', async () => {
    let loggedOut = false;
    server.use(
      http.post('/api/auth/logout', () => {
        loggedOut = true;
        return HttpResponse.json({ success: true });
      }),
      http.get('/api/auth/getLoggedUser', unauthorized),
      http.post('/api/auth/refresh', unauthorized),
    );
    const store = makeStore(signedInState(buildUser()));
    await store.dispatch(logout());
    expect(loggedOut).toBe(true);
    expect(store.getState().auth).toMatchObject({ user: null, session: 'loggedOut' });
  });
});

describe('account and profile updates', () => {
  it.each([
    ['updateAccount', (store: AppStore) => store.dispatch(updateAccount({ password: 'password1' }))],
    [
      'updateProfile',
      (store: AppStore) => store.dispatch(updateProfile({ avatar: null, banner: null, description: '' })),
    ],
  ] as const)('%s fails with "User are not logged in" without a user', async (slot, run) => {
    const store = makeStore();
    await run(store);
    expect(store.getState().auth[slot]).toEqual({ loading: false, error: TEXTS.notLoggedIn });
    expect(store.getState().toasts[0].message).toBe(TEXTS.notLoggedIn);
  });

  it('sends the signed-in email with only the changed fields and shows "User has been updated"', async () => {
    const user = buildUser({ email: 'me@example.com' });
    let body: unknown;
    server.use(
      http.patch('/api/users/updateAccount', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ user: { ...user, username: 'renamed' } });
      }),
    );
    const store = makeStore(signedInState(user));
    const pending = store.dispatch(updateAccount({ username: 'renamed', password: 'password1' }));
    expect(store.getState().auth.updateAccount).toEqual({ loading: true, error: null });
    await pending;
    expect(body).toEqual({ username: 'renamed', email: 'me@example.com', password: 'password1' });
    expect(store.getState().auth.user?.username).toBe('renamed');
    expect(store.getState().toasts[0]).toMatchObject({ message: TEXTS.userUpdated, time: TOAST_DEFAULT_MS });
  });

  it("stores the server's message when the profile update fails", async () => {
    server.use(
      http.patch('/api/users/updateProfile', () =>
        HttpResponse.json({ message: 'Description is too long', code: 'BadRequest' }, { status: 400 }),
      ),
    );
    const store = makeStore(signedInState(buildUser()));
    await store.dispatch(updateProfile({ avatar: null, banner: null, description: 'x' }));
    expect(store.getState().auth.updateProfile).toEqual({ loading: false, error: 'Description is too long' });
    expect(store.getState().toasts[0].message).toBe('Description is too long');
  });
});
