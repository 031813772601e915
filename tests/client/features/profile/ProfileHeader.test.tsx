import { screen } from '@testing-library/react';
import { ProfileHeader } from '../../../../features/profile/ProfileHeader';
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

  it('shows no such link for someone here', () => {
    renderWithProviders(<ProfileHeader profile={buildProfile({ username: 'ann' })} isMe={false} />, {
      preloadedState: signedInState(buildUser()),
    });
    expect(screen.queryByText(/On another server/)).toBeNull();
  });
});
