import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { AppShell } from '../../../components/shell/AppShell';
import { updateProfile } from '../../../features/auth/authSlice';
import { likePost } from '../../../features/posts/state/thunks';
import { makeStore } from '../../../store';
import { isSessionLost } from '../../../store/sessionLost';
import { buildUser } from '../support/factories';
import { renderWithProviders, signedInState } from '../support/renderWithProviders';
import { router, setRoute } from '../support/router';
import { server } from '../support/server';

const unauthorized = (message: string) => () => HttpResponse.json({ message, code: 'Unauthorized' }, { status: 401 });
const me = buildUser({ username: 'alice' });

function renderSignedIn() {
  setRoute('/home');
  const store = makeStore(signedInState(me));
  renderWithProviders(
    <AppShell>
      <p>Private feed</p>
    </AppShell>,
    { store },
  );
  return store;
}

describe('a session that cannot be renewed', () => {
  it('signs the user out and sends them to / when the refresh fails (revoked, expired)', async () => {
    let lookups = 0;
    server.use(
      http.patch('/api/posts/p1/like', unauthorized('Session expired, please sign in again')),
      http.patch('/api/users/updateProfile', unauthorized('Session expired, please sign in again')),
      http.post('/api/auth/refresh', unauthorized('No session')),
      http.get('/api/auth/getLoggedUser', () => {
        lookups += 1;
        return unauthorized('No session')();
      }),
    );
    const store = renderSignedIn();
    expect(await screen.findByText('Private feed')).toBeInTheDocument();

    // Two calls fail at once: one lookup decides.
    await act(() => Promise.all([store.dispatch(likePost('p1')), store.dispatch(updateProfile({ description: 'x' }))]));
    await waitFor(() => expect(store.getState().auth.user).toBeNull());
    expect(store.getState().auth.session).toBe('loggedOut');
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/'));
    expect(screen.queryByText('Private feed')).not.toBeInTheDocument();
    expect(lookups).toBe(1);
    // The failed call still says why (spec section 8: the server's message).
    expect(store.getState().notifications.map((n) => n.message)).toContain('No session');
  });

  it('keeps the user signed in when the lookup renews the session (the other tab won the refresh race)', async () => {
    let lookups = 0;
    server.use(
      http.patch('/api/posts/p1/like', unauthorized('Session expired, please sign in again')),
      http.post('/api/auth/refresh', unauthorized('Refresh token was already used')),
      http.get('/api/auth/getLoggedUser', () => {
        lookups += 1;
        return HttpResponse.json(me);
      }),
    );
    const store = renderSignedIn();
    await act(() => store.dispatch(likePost('p1')));
    await waitFor(() => expect(lookups).toBe(1));
    await waitFor(() => expect(store.getState().auth.session).toBe('loggedIn'));
    expect(store.getState().auth.user).toEqual(me);
    expect(router.replace).not.toHaveBeenCalled();
  });

  it('is not set off by other failures', async () => {
    let lookups = 0;
    server.use(
      http.patch('/api/posts/p1/like', () =>
        HttpResponse.json({ message: 'Post not found', code: 'NotFound' }, { status: 404 }),
      ),
      http.get('/api/auth/getLoggedUser', () => {
        lookups += 1;
        return HttpResponse.json(me);
      }),
    );
    const store = renderSignedIn();
    await act(() => store.dispatch(likePost('p1')));
    expect(lookups).toBe(0);
    expect(store.getState().auth.user).toEqual(me);
    expect(isSessionLost(new Error('User are not logged in'))).toBe(false);
    expect(isSessionLost({ response: { status: 401 } })).toBe(true);
  });
});
