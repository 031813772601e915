import { screen } from '@testing-library/react';
import { ProfileHeader } from '../../../../features/profile/components/ProfileHeader';
import { buildProfile, buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';

describe('ProfileHeader for someone on another server (issue 32)', () => {
  it('shows their name with its host, a link to their page there, and Follow', () => {
    const bob = buildProfile({ username: 'bob@example.social', remoteUrl: 'https://example.social/@bob' });
    renderWithProviders(<ProfileHeader profile={bob} isMe={false} />, { preloadedState: signedInState(buildUser()) });
    expect(screen.getByRole('heading', { name: 'bob@example.social' })).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'https://example.social/@bob' });
    expect(link).toHaveAttribute('href', 'https://example.social/@bob');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(screen.getByRole('button', { name: /Follow/ })).toBeInTheDocument();
  });

  it('says "1 follower" and "1 post", "2 followers" and "0 posts"', () => {
    const { unmount } = renderWithProviders(
      <ProfileHeader profile={buildProfile({ username: 'ann', followersCount: 1, postsCount: 1 })} isMe={false} />,
      { preloadedState: signedInState(buildUser()) },
    );
    expect(screen.getByText('follower')).toBeInTheDocument();
    expect(screen.getByText('post')).toBeInTheDocument();
    unmount();
    renderWithProviders(
      <ProfileHeader profile={buildProfile({ username: 'ann', followersCount: 2, postsCount: 0 })} isMe={false} />,
      { preloadedState: signedInState(buildUser()) },
    );
    expect(screen.getByText('followers')).toBeInTheDocument();
    expect(screen.getByText('posts')).toBeInTheDocument();
  });

  it('shows no such link for someone here', () => {
    renderWithProviders(<ProfileHeader profile={buildProfile({ username: 'ann' })} isMe={false} />, {
      preloadedState: signedInState(buildUser()),
    });
    expect(screen.queryByText(/On another server/)).toBeNull();
  });
});

describe('ProfileHeader of a moved account (issue 76)', () => {
  it('says where it moved, linking the new profile', () => {
    const ann = buildProfile({
      username: 'ann',
      movedTo: { _id: 'b1', username: 'bob@example.social', displayName: null },
    });
    renderWithProviders(<ProfileHeader profile={ann} isMe={false} />, { preloadedState: signedInState(buildUser()) });
    expect(screen.getByRole('status')).toHaveTextContent('This account has moved to @bob@example.social');
    expect(screen.getByRole('link', { name: '@bob@example.social' })).toHaveAttribute(
      'href',
      '/profile/@bob@example.social',
    );
  });

  it('says nothing of a move for an account that has not moved', () => {
    renderWithProviders(<ProfileHeader profile={buildProfile({ username: 'ann' })} isMe={false} />, {
      preloadedState: signedInState(buildUser()),
    });
    expect(screen.queryByText(/has moved/)).toBeNull();
  });
});
