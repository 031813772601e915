/**
 * A profile's followers and following on RTK Query (issue 69, item 7): read through the app's axios
 * client (an expired access token is renewed by its one refresh path), shown, empty, failed, and
 * kept in the list's cache when Follow is pressed.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import ConnectionList from '../../../../features/profile/components/ConnectionList';
import { connectionQueries } from '../../../../features/profile/state/connectionQueries';
import type { PersonResult } from '../../../../lib/types';
import type { RootState } from '../../../../store';
import { buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const me = buildUser({ username: 'me' });
const ann: PersonResult = { _id: 'u1', username: 'ann', avatar: null, description: 'Sailor', followedByMe: false };
const bob: PersonResult = { _id: 'u2', username: 'bob', avatar: null, description: '', followedByMe: true };

/** The list as RTK Query keeps it in the store. */
const cached = (state: RootState, username: string) =>
  connectionQueries.endpoints.connections
    .select({ username, kind: 'followers' })(
      state as Parameters<ReturnType<typeof connectionQueries.endpoints.connections.select>>[0],
    )
    .data?.pages.flatMap((page) => page.items);

describe('ConnectionList (RTK Query)', () => {
  it('an expired access token on the list read is refreshed once by the API client, then the list shows', async () => {
    const counts = { followers: 0, refresh: 0 };
    let refreshed = false;
    server.use(
      http.get('/api/users/carol/followers', () => {
        counts.followers += 1;
        if (!refreshed) return HttpResponse.json({ message: 'Token expired', code: 'Unauthorized' }, { status: 401 });
        return HttpResponse.json([ann, bob]);
      }),
      http.post('/api/auth/refresh', () => {
        counts.refresh += 1;
        refreshed = true;
        return HttpResponse.json({ success: true });
      }),
    );
    const { store } = renderWithProviders(<ConnectionList username="carol" kind="followers" />, {
      preloadedState: signedInState(me),
    });
    expect(await screen.findByRole('link', { name: /^ann Sailor$/ })).toHaveAttribute('href', '/profile/ann');
    expect(screen.getByRole('link', { name: /^bob$/ })).toBeInTheDocument();
    expect(counts).toEqual({ followers: 2, refresh: 1 });
    // Read by RTK Query: the answer is in its cache, not in a component's state.
    expect(cached(store.getState(), 'carol')?.map((p) => p.username)).toEqual(['ann', 'bob']);
    expect(store.getState().auth.session).toBe('loggedIn');
  });

  it("says so when nobody follows, and shows the server's message when the read fails", async () => {
    server.use(
      http.get('/api/users/dan/followers', () => HttpResponse.json([])),
      http.get('/api/users/eve/followers', () =>
        HttpResponse.json({ message: 'User not found', code: 'NotFound' }, { status: 404 }),
      ),
    );
    const { unmount } = renderWithProviders(<ConnectionList username="dan" kind="followers" />, {
      preloadedState: signedInState(me),
    });
    expect(await screen.findByRole('heading', { name: 'No followers yet' })).toBeInTheDocument();
    unmount();
    renderWithProviders(<ConnectionList username="eve" kind="followers" />, { preloadedState: signedInState(me) });
    expect(await screen.findByRole('alert')).toHaveTextContent('User not found');
  });

  it("Follow on a listed person is kept in the list's cache, so the list shows it", async () => {
    server.use(
      http.get('/api/users/carol/followers', () => HttpResponse.json([ann, bob])),
      http.patch('/api/users/ann/follow', () => HttpResponse.json({ user: { ...ann, followedByMe: true } })),
      http.get('/api/auth/getLoggedUser', () => HttpResponse.json({ ...me, followingCount: 1 })),
    );
    const { store } = renderWithProviders(<ConnectionList username="carol" kind="followers" />, {
      preloadedState: signedInState(me),
    });
    const person = (await screen.findByRole('link', { name: /^ann Sailor$/ })).closest('li')!;
    await userEvent.click(within(person).getByRole('button', { name: 'Follow ann' }));
    expect(await within(person).findByRole('button', { name: 'Following ann' })).toBeInTheDocument();
    await waitFor(() =>
      expect(cached(store.getState(), 'carol')?.find((p) => p._id === 'u1')?.followedByMe).toBe(true),
    );
  });
});
