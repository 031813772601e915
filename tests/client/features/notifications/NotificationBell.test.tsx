import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { selectUser } from '../../../../features/auth/state/authSlice';
import { LiveNotifications, NotificationBell, NotificationsLink } from '../../../../features/notifications';
import { useAppSelector } from '../../../../store/hooks';
import { FakeEventSource } from '../../support/eventSource';
import { buildNotification, buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const me = buildUser({ username: 'alice' });

/** The server's notifications and unread count, as the handlers keep them. */
function notificationServer() {
  const state = {
    items: [
      buildNotification({ id: 'n2', type: 'comment', comment: { commentId: 'c1', message: 'Lovely light' } }),
      buildNotification({
        id: 'n1',
        type: 'follow',
        post: null,
        read: true,
        actor: { username: 'bob', avatar: null, followedByMe: false },
      }),
    ],
    readUpTo: [] as unknown[],
  };
  const unread = () => state.items.filter((item) => !item.read).length;
  server.use(
    http.get('/api/notifications/unread', () => HttpResponse.json({ count: unread() })),
    http.get('/api/notifications', () => HttpResponse.json(state.items)),
    http.post('/api/notifications/read', async ({ request }) => {
      const { upTo } = (await request.json()) as { upTo?: string };
      state.readUpTo.push(upTo);
      const at = state.items.findIndex((item) => item.id === upTo);
      state.items = state.items.map((item, i) => (i >= at ? { ...item, read: true } : item));
      return HttpResponse.json({ count: unread() });
    }),
  );
  return state;
}

const renderBell = () =>
  renderWithProviders(
    <>
      <LiveNotifications delayMs={0} />
      <NotificationBell />
      <NotificationsLink />
    </>,
    { preloadedState: signedInState(me) },
  );

describe('the bell', () => {
  it('opens the stream only once the page has loaded and the delay has passed', async () => {
    notificationServer();
    renderWithProviders(<LiveNotifications delayMs={50} />, { preloadedState: signedInState(me) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(FakeEventSource.instances).toHaveLength(0);
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
  });

  it('shows the unread count once the stream opens, and a new one raises it and is announced', async () => {
    notificationServer();
    renderBell();
    const bell = screen.getByRole('button', { name: 'Notifications' });
    expect(screen.queryByTestId('unread-badge')).not.toBeInTheDocument();
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    act(() => FakeEventSource.last().open());
    await vi.waitFor(() => expect(bell).toHaveAccessibleName('Notifications, 1 unread'));
    expect(screen.getByRole('link', { name: 'Notifications, 1 unread' })).toHaveAttribute('href', '/notifications');
    expect(screen.getAllByTestId('unread-badge').map((badge) => badge.textContent)).toEqual(['1', '1']);

    act(() => FakeEventSource.last().emit('notification', buildNotification({ id: 'n3', type: 'mention' }), 'n3'));
    expect(bell).toHaveAccessibleName('Notifications, 2 unread');
    expect(screen.getByRole('status')).toHaveTextContent('New notification: ann mentioned you in a post');
    // A read one (another tab saw it) does not count.
    act(() => FakeEventSource.last().emit('notification', buildNotification({ id: 'n4', read: true }), 'n4'));
    expect(bell).toHaveAccessibleName('Notifications, 2 unread');
  });

  it('falls without opening anything when the stream says unread ones were removed (a like taken back)', async () => {
    notificationServer();
    renderBell();
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    act(() => FakeEventSource.last().open());
    const bell = screen.getByRole('button', { name: 'Notifications' });
    await vi.waitFor(() => expect(bell).toHaveAccessibleName('Notifications, 1 unread'));
    act(() => FakeEventSource.last().emit('notification', buildNotification({ id: 'n3', type: 'like' }), 'n3'));
    expect(bell).toHaveAccessibleName('Notifications, 2 unread');

    act(() => FakeEventSource.last().emit('unread', { count: 1 }));
    expect(bell).toHaveAccessibleName('Notifications, 1 unread');
    expect(screen.getAllByTestId('unread-badge').map((badge) => badge.textContent)).toEqual(['1', '1']);
    act(() => FakeEventSource.last().emit('unread', { count: 0 }));
    expect(bell).toHaveAccessibleName('Notifications');
    expect(screen.queryByTestId('unread-badge')).not.toBeInTheDocument();
    // Nothing new was said to screen readers.
    expect(screen.getByRole('status')).toHaveTextContent('New notification: ann liked your post');
  });

  it('opening it lists them (avatar, text, thumbnail, link) and marks them read up to the newest: the badge falls', async () => {
    const state = notificationServer();
    const user = userEvent.setup();
    renderBell();
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    act(() => FakeEventSource.last().open());
    const bell = screen.getByRole('button', { name: 'Notifications' });
    await vi.waitFor(() => expect(bell).toHaveAccessibleName('Notifications, 1 unread'));

    await user.click(bell);
    const panel = await screen.findByRole('region', { name: 'Notifications' });
    const comment = await within(panel).findByRole('link', { name: /^ann commented on your post, new “Lovely light”/ });
    expect(comment).toHaveAttribute('href', '/post/p1#comments');
    expect(comment).toHaveTextContent('“Lovely light”');
    expect(comment.querySelector('img')).toHaveAttribute('src', '/media/p1.webp');
    expect(within(panel).getByRole('link', { name: /^bob started following you \d/ })).toHaveAttribute(
      'href',
      '/profile/bob',
    );
    expect(within(panel).getByRole('link', { name: 'See all' })).toHaveAttribute('href', '/notifications');

    await vi.waitFor(() => expect(state.readUpTo).toEqual(['n2']));
    expect(bell).toHaveAccessibleName('Notifications');
    expect(screen.queryByTestId('unread-badge')).not.toBeInTheDocument();

    // Escape closes the panel and leaves the keyboard on the bell.
    await user.click(within(panel).getByRole('link', { name: 'See all' }));
    await user.click(bell);
    await screen.findByRole('region', { name: 'Notifications' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Notifications' })).not.toBeInTheDocument();
  });

  it('reads in and marks one that arrives while the panel is open', async () => {
    const state = notificationServer();
    const user = userEvent.setup();
    renderBell();
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    act(() => FakeEventSource.last().open());
    await user.click(screen.getByRole('button', { name: /^Notifications/ }));
    const panel = await screen.findByRole('region', { name: 'Notifications' });
    await vi.waitFor(() => expect(state.readUpTo).toEqual(['n2']));

    const newer = buildNotification({ id: 'n5', type: 'commentLike', comment: { commentId: 'c2', message: 'Thanks' } });
    state.items = [newer, ...state.items];
    act(() => FakeEventSource.last().emit('notification', newer, 'n5'));
    expect(await within(panel).findByRole('link', { name: /ann liked your comment/ })).toBeInTheDocument();
    await vi.waitFor(() => expect(state.readUpTo).toEqual(['n2', 'n5']));
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: /^Notifications/ })).toHaveAccessibleName('Notifications'),
    );
  });

  it('closes the stream when its read finds the session lost: the API client signs the user out, the navbar goes', async () => {
    let reads = 0;
    server.use(
      http.get('/api/notifications/unread', () => {
        reads += 1;
        return HttpResponse.json({ message: 'Token expired' }, { status: 401 });
      }),
      http.post('/api/auth/refresh', () => HttpResponse.json({ message: 'No session' }, { status: 401 })),
      http.get('/api/auth/getLoggedUser', () => HttpResponse.json({ message: 'No session' }, { status: 401 })),
    );
    // As the navbar: the stream lives while a user is signed in.
    function SignedInOnly() {
      return useAppSelector(selectUser) ? <LiveNotifications delayMs={0} /> : <p>Signed out</p>;
    }
    const { store } = renderWithProviders(<SignedInOnly />, { preloadedState: signedInState(me) });
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    act(() => FakeEventSource.last().open());
    expect(await screen.findByText('Signed out')).toBeInTheDocument();
    expect(store.getState().auth.session).toBe('loggedOut');
    expect(FakeEventSource.last().readyState).toBe(FakeEventSource.CLOSED);
    expect(reads).toBe(1);
  });
});

describe("the phone's notifications link (issue 68, item 7)", () => {
  const renderLink = (unread: number) =>
    renderWithProviders(<NotificationsLink />, {
      preloadedState: { ...signedInState(me), notifications: { unread } },
    });

  it.each([
    [1, '1', 'Notifications, 1 unread'],
    [120, '99+', 'Notifications, 99+ unread'],
  ])('with %i unread, the text it shows (%s) is part of its name (WCAG 2.5.3)', (unread, shown, name) => {
    renderLink(unread);
    const link = screen.getByRole('link', { name });
    expect(link).not.toHaveAttribute('aria-label');
    const badge = screen.getByTestId('unread-badge');
    expect(badge).toHaveTextContent(shown);
    expect(badge).not.toHaveAttribute('aria-hidden');
    expect(link).toContainElement(badge);
  });

  it('is "Notifications" with nothing unread', () => {
    renderLink(0);
    expect(screen.getByRole('link', { name: 'Notifications' })).toHaveAttribute('href', '/notifications');
  });
});
