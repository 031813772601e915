import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { LoggedInNavbar } from '../../../components/shell/LoggedInNavbar';
import { PostDetail } from '../../../features/posts/components/PostDetail';
import { ProfileView } from '../../../features/profile/components/ProfileView';
import { buildUser } from '../support/factories';
import { renderWithProviders, signedInState } from '../support/renderWithProviders';
import { server } from '../support/server';

const me = buildUser({ username: 'me' });

/** Issue 68, item 12: a post or a person that is not there leaves a way on: Home and the search. */
describe('not found', () => {
  it('a missing post offers Home and the search, which opens the navbar’s search with the keyboard in it', async () => {
    server.use(
      http.get('/api/posts/gone', () =>
        HttpResponse.json({ message: 'Post not found', code: 'PostNotFound' }, { status: 404 }),
      ),
      http.get('/api/posts/gone/comments', () => HttpResponse.json([])),
    );
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <LoggedInNavbar user={me} onCreatePost={vi.fn()} onLogout={vi.fn()} />
        <PostDetail id="gone" />
      </>,
      { preloadedState: signedInState(me) },
    );
    expect(await screen.findByRole('heading', { name: 'This post is not available' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Home' })).toHaveAttribute('href', '/home');
    await user.click(screen.getByRole('button', { name: 'Search posts and people' }));
    const search = screen.getByRole('search');
    expect(search).toContainElement(document.activeElement as HTMLElement);
    expect(document.activeElement?.tagName).toBe('INPUT');
  });

  it('a missing profile offers Home and the search', async () => {
    server.use(
      http.get('/api/users/nobody', () =>
        HttpResponse.json({ message: 'User not found', code: 'UserNotFound' }, { status: 404 }),
      ),
      http.get('/api/users/nobody/posts', () => HttpResponse.json([])),
    );
    renderWithProviders(<ProfileView username="nobody" />, { preloadedState: signedInState(me) });
    expect(await screen.findByText('User not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Home' })).toHaveAttribute('href', '/home');
    expect(screen.getByRole('button', { name: 'Search posts and people' })).toBeInTheDocument();
  });
});
