import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { AppShell } from '../../../../components/shell/AppShell';
import { buildUser } from '../../support/factories';
import { renderWithProviders } from '../../support/renderWithProviders';
import { router, setRoute } from '../../support/router';
import { server } from '../../support/server';

const signedOut = () =>
  server.use(
    http.get('/api/auth/getLoggedUser', () =>
      HttpResponse.json({ message: 'No', code: 'Unauthorized' }, { status: 401 }),
    ),
    http.post('/api/auth/refresh', () => HttpResponse.json({ message: 'No', code: 'Unauthorized' }, { status: 401 })),
  );
const signedIn = () => {
  document.cookie = 'has_session=1; path=/';
  server.use(http.get('/api/auth/getLoggedUser', () => HttpResponse.json(buildUser({ username: 'alice' }))));
};

describe('AppShell route guards', () => {
  afterEach(() => {
    document.cookie = 'has_session=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });

  it('sends visitors who are not signed in from a private page to sign in, back to the page', async () => {
    signedOut();
    setRoute('/home');
    renderWithProviders(
      <AppShell>
        <p>Private feed</p>
      </AppShell>,
    );
    expect(screen.queryByText('Private feed')).not.toBeInTheDocument();
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/login?next=%2Fhome'));
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('says "Please sign in again" when the session it came back with had ended meanwhile, once (issue 68, item 20)', async () => {
    signedOut();
    document.cookie = 'has_session=1; path=/';
    setRoute('/home');
    const { store } = renderWithProviders(
      <AppShell>
        <p>Private feed</p>
      </AppShell>,
    );
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/login?next=%2Fhome'));
    await waitFor(() =>
      expect(store.getState().toasts).toMatchObject([
        { message: 'Your session has ended. Please sign in again.', kind: 'info' },
      ]),
    );
    expect(document.cookie).not.toContain('has_session=1');
  });

  it('says nothing of the kind to a visitor who never had a session', async () => {
    signedOut();
    setRoute('/home');
    const { store } = renderWithProviders(
      <AppShell>
        <p>Private feed</p>
      </AppShell>,
    );
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/login?next=%2Fhome'));
    expect(store.getState().toasts).toEqual([]);
  });

  it('sends a signed-in user at /login?next= to next when it is a same-site path, else home', async () => {
    signedIn();
    setRoute('/login', '/login?next=%2Ftagged%2Fx', { next: '/tagged/x' });
    renderWithProviders(
      <AppShell>
        <p>Login form</p>
      </AppShell>,
    );
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/tagged/x'));
  });

  it('sends a signed-in user at /login?next=//evil.example home', async () => {
    signedIn();
    setRoute('/login', '/login?next=%2F%2Fevil.example', { next: '//evil.example' });
    renderWithProviders(
      <AppShell>
        <p>Login form</p>
      </AppShell>,
    );
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/home'));
    expect(router.replace).not.toHaveBeenCalledWith('//evil.example');
  });

  it('sends signed-in users from /login to /home', async () => {
    signedIn();
    setRoute('/login');
    renderWithProviders(
      <AppShell>
        <p>Login form</p>
      </AppShell>,
    );
    await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/home'));
  });

  it('renders a private page with the logged-in navbar once the session is known', async () => {
    signedIn();
    setRoute('/contact');
    renderWithProviders(
      <AppShell>
        <p>Contact page</p>
      </AppShell>,
    );
    expect(await screen.findByText('Contact page')).toBeInTheDocument();
    // The signed-in navbar is loaded on demand: it still arrives, and works.
    expect(await screen.findByRole('button', { name: 'Create post' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile/alice');
    expect(router.replace).not.toHaveBeenCalled();
  });

  it('with the session hint, renders a private page while the user is still being looked up', async () => {
    document.cookie = 'has_session=1; path=/';
    let answer: (() => void) | undefined;
    server.use(
      http.get('/api/auth/getLoggedUser', async () => {
        await new Promise<void>((resolve) => (answer = resolve));
        return HttpResponse.json(buildUser());
      }),
    );
    setRoute('/home');
    renderWithProviders(
      <AppShell>
        <p>Feed</p>
      </AppShell>,
    );
    expect(await screen.findByText('Feed')).toBeInTheDocument();
    answer?.();
    expect(await screen.findByRole('button', { name: 'Create post' })).toBeInTheDocument();
  });

  it('without the hint, waits for the lookup before rendering a private page', async () => {
    server.use(http.get('/api/auth/getLoggedUser', () => HttpResponse.json(buildUser())));
    setRoute('/home');
    renderWithProviders(
      <AppShell>
        <p>Feed</p>
      </AppShell>,
    );
    expect(screen.queryByText('Feed')).not.toBeInTheDocument();
    expect(await screen.findByText('Feed')).toBeInTheDocument();
  });

  it('lets visitors see the public pages without looking a session up', async () => {
    let lookups = 0;
    server.use(
      http.get('/api/auth/getLoggedUser', () => {
        lookups += 1;
        return HttpResponse.json({ message: 'No', code: 'Unauthorized' }, { status: 401 });
      }),
    );
    setRoute('/');
    renderWithProviders(
      <AppShell>
        <p>Landing</p>
      </AppShell>,
    );
    expect(screen.getByText('Landing')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('link', { name: 'Sign in' })).toBeInTheDocument());
    expect(router.replace).not.toHaveBeenCalled();
    expect(lookups).toBe(0);
  });

  it('shows the verification banner only to a signed-in user whose email is not verified', async () => {
    document.cookie = 'has_session=1; path=/';
    server.use(
      http.get('/api/auth/getLoggedUser', () =>
        HttpResponse.json(buildUser({ username: 'alice', email: 'alice@example.com', emailVerified: false })),
      ),
    );
    setRoute('/contact');
    renderWithProviders(
      <AppShell>
        <p>Contact page</p>
      </AppShell>,
    );
    expect(await screen.findByRole('region', { name: 'Email verification' })).toHaveTextContent('alice@example.com');
  });

  it('shows no banner to a verified user', async () => {
    signedIn();
    setRoute('/contact');
    renderWithProviders(
      <AppShell>
        <p>Contact page</p>
      </AppShell>,
    );
    expect(await screen.findByRole('button', { name: 'Create post' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Email verification' })).not.toBeInTheDocument();
  });
});
