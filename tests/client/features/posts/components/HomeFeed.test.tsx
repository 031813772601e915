import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { HomeFeed } from '../../../../../features/posts/components/HomeFeed';
import { buildPost, buildUser } from '../../../support/factories';
import { renderWithProviders, signedInState } from '../../../support/renderWithProviders';
import { router, setRoute } from '../../../support/router';
import { server } from '../../../support/server';

function serveFeeds(feeds: string[]) {
  server.use(
    http.get('/api/posts', ({ request }) => {
      const feed = new URL(request.url).searchParams.get('feed') ?? '';
      feeds.push(feed);
      return HttpResponse.json(feed === 'all' ? [buildPost({ message: 'From someone else' })] : []);
    }),
  );
}

describe('HomeFeed', () => {
  it('starts on Following, points to Everyone when empty, and switches feeds through the address', async () => {
    const user = userEvent.setup();
    const feeds: string[] = [];
    serveFeeds(feeds);
    const { rerender } = renderWithProviders(<HomeFeed />, { preloadedState: signedInState(buildUser()) });
    expect(screen.getByRole('button', { name: 'Following' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(await screen.findByRole('button', { name: 'Browse Everyone' }));
    // The tab is the address's: replaced (no new history entry), shallow, the scroll left alone.
    expect(router.replace).toHaveBeenCalledWith('/home?feed=everyone', undefined, { shallow: true, scroll: false });
    setRoute('/home', '/home?feed=everyone', { feed: 'everyone' });
    rerender(<HomeFeed />);
    expect(await screen.findByText('From someone else')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Everyone' })).toHaveAttribute('aria-pressed', 'true');
    expect(feeds).toEqual(['following', 'all']);

    await user.click(screen.getByRole('button', { name: 'Following' }));
    expect(router.replace).toHaveBeenLastCalledWith('/home', undefined, { shallow: true, scroll: false });
  });

  it('opens on the tab its address names (a reload, a link, Back)', async () => {
    const feeds: string[] = [];
    serveFeeds(feeds);
    setRoute('/home', '/home?feed=everyone', { feed: 'everyone' });
    renderWithProviders(<HomeFeed />, { preloadedState: signedInState(buildUser()) });
    expect(screen.getByRole('button', { name: 'Everyone' })).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByText('From someone else')).toBeInTheDocument();
    expect(feeds).toEqual(['all']);
    // Clicking the tab already shown changes nothing.
    await userEvent.setup().click(screen.getByRole('button', { name: 'Everyone' }));
    expect(router.replace).not.toHaveBeenCalled();
  });
});
