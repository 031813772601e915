import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { HomeFeed } from '../../../../../features/posts/components/HomeFeed';
import { buildPost, buildUser } from '../../../support/factories';
import { renderWithProviders, signedInState } from '../../../support/renderWithProviders';
import { server } from '../../../support/server';

describe('HomeFeed', () => {
  it('starts on Following, points to Everyone when empty, and switches feeds', async () => {
    const user = userEvent.setup();
    const feeds: string[] = [];
    server.use(
      http.get('/api/posts', ({ request }) => {
        const feed = new URL(request.url).searchParams.get('feed') ?? '';
        feeds.push(feed);
        return HttpResponse.json(feed === 'all' ? [buildPost({ message: 'From someone else' })] : []);
      }),
    );
    renderWithProviders(<HomeFeed />, { preloadedState: signedInState(buildUser()) });
    expect(screen.getByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(await screen.findByRole('button', { name: 'Browse Everyone' }));
    expect(await screen.findByText('From someone else')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Everyone' })).toHaveAttribute('aria-pressed', 'true');
    expect(feeds).toEqual(['following', 'all']);
  });
});
