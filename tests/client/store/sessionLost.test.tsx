import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { AppShell } from '../../../components/shell/AppShell';
import { ContactCard } from '../../../features/contact/components/ContactCard';
import { updateProfile } from '../../../features/auth/state/authSlice';
import { likePost } from '../../../features/posts/state/thunks';
import { apiClient } from '../../../services/apiClient';
import { makeStore, type AppStore } from '../../../store';
import { addListeners } from '../../../store/actionListeners';
import { sessionLost } from '../../../store/sessionLost';
import { buildUser } from '../support/factories';
import { renderWithProviders, signedInState } from '../support/renderWithProviders';
import { router, setRoute } from '../support/router';
import { server } from '../support/server';

const unauthorized = (message: string) => () => HttpResponse.json({ message, code: 'Unauthorized' }, { status: 401 });
const me = buildUser({ username: 'alice' });

function renderSignedIn(page = <p>Private feed</p>, route = '/home') {
  setRoute(route);
  const store = makeStore(signedInState(me));
  renderWithProviders(<AppShell>{page}</AppShell>, { store });
  return store;
}

/** How many `sessionLost` actions reach the store. */
function countSessionLost(store: AppStore) {
  const seen = { count: 0 };
  store.dispatch(addListeners([{ type: sessionLost.type, effect: () => void (seen.count += 1) }]));
  return seen;
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
    expect(store.getState().toasts.map((n) => n.message)).toContain('No session');
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
  });

  it('is not set off by a refresh that failed for another reason (too many attempts, no network)', async () => {
    let lookups = 0;
    server.use(
      http.patch('/api/posts/p1/like', unauthorized('Token expired')),
      http.post('/api/auth/refresh', () =>
        HttpResponse.json({ message: 'Too many attempts', code: 'TooManyAttempts' }, { status: 429 }),
      ),
      http.get('/api/auth/getLoggedUser', () => {
        lookups += 1;
        return HttpResponse.json(me);
      }),
    );
    const store = renderSignedIn();
    const lost = countSessionLost(store);
    await act(() => store.dispatch(likePost('p1')));
    expect(lost.count).toBe(0);
    expect(lookups).toBe(0);
    expect(store.getState().auth.user).toEqual(me);
  });
});

describe("the API client's one session-loss path", () => {
  it('dispatches sessionLost once for concurrent 401s whose shared refresh is refused', async () => {
    // The refresh answers once all three requests have failed, so they all wait for the same one.
    let failed = 0;
    let allFailed!: () => void;
    const everyoneFailed = new Promise<void>((resolve) => (allFailed = resolve));
    let refreshes = 0;
    let lookups = 0;
    const expired = () => {
      failed += 1;
      if (failed === 3) allFailed();
      return unauthorized('Token expired')();
    };
    server.use(
      http.get('/api/a', expired),
      http.get('/api/b', expired),
      http.get('/api/c', expired),
      http.post('/api/auth/refresh', async () => {
        refreshes += 1;
        await everyoneFailed;
        return unauthorized('No session')();
      }),
      http.get('/api/auth/getLoggedUser', () => {
        lookups += 1;
        return unauthorized('No session')();
      }),
    );
    const store = renderSignedIn();
    const lost = countSessionLost(store);
    const outcomes = await act(() =>
      Promise.allSettled(['/api/a', '/api/b', '/api/c'].map((url) => apiClient.get(url))),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(refreshes).toBe(1);
    expect(lost.count).toBe(1);
    await waitFor(() => expect(store.getState().auth.session).toBe('loggedOut'));
    expect(lookups).toBe(1);
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/'));
  });

  it('signs out a component that calls the API itself, which handles nothing of it (the contact card)', async () => {
    server.use(
      http.get('/api/instance', unauthorized('Token expired')),
      http.post('/api/auth/refresh', unauthorized('No session')),
      http.get('/api/auth/getLoggedUser', unauthorized('No session')),
    );
    const store = renderSignedIn(<ContactCard />, '/contact');
    const lost = countSessionLost(store);
    await waitFor(() => expect(store.getState().auth.session).toBe('loggedOut'));
    expect(lost.count).toBe(1);
    expect(store.getState().auth.user).toBeNull();
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/'));
  });
});
