/**
 * Explore's page (issue 73): with the server's data it reads nothing more; opened by a client-side
 * navigation it reads `GET /api/explore` itself; with nothing trending and nobody to suggest, each
 * part says what to do. Against the API as msw answers it.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { ExplorePage } from '../../../../features/explore';
import type { Explore } from '../../../../lib/types';
import { buildPost, buildUser } from '../../support/factories';
import { renderWithProviders, signedInState } from '../../support/renderWithProviders';
import { server } from '../../support/server';

const me = buildUser({ username: 'me' });
const found: Explore = {
  posts: [],
  tags: [{ tag: 'sunset', people: 4, posts: 2 }],
  people: [{ _id: 'u1', username: 'ann', avatar: null, description: 'Photos of the sea', followedByMe: false }],
};

describe('ExplorePage', () => {
  it('shows the trending tags and people it was given', async () => {
    renderWithProviders(<ExplorePage initial={found} />, { preloadedState: signedInState(me) });
    expect(screen.getByRole('link', { name: /#sunset/ })).toHaveAttribute('href', '/tagged/sunset');
    expect(screen.getByText('4 people · 2 posts')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Follow ann' })).toBeInTheDocument();
  });

  it('reads them itself when opened without them', async () => {
    let reads = 0;
    server.use(
      http.get('/api/explore', () => {
        reads++;
        return HttpResponse.json(found);
      }),
    );
    renderWithProviders(<ExplorePage initial={null} />, { preloadedState: signedInState(me) });
    expect(await screen.findByRole('link', { name: /#sunset/ })).toBeInTheDocument();
    expect(reads).toBeGreaterThan(0);
  });

  it('says what to do when nothing trends and nobody is suggested', async () => {
    server.use(http.get('/api/explore', () => HttpResponse.json({ posts: [], tags: [], people: [] })));
    renderWithProviders(<ExplorePage initial={{ posts: [], tags: [], people: [] }} />, {
      preloadedState: signedInState(me),
    });
    expect(screen.getByRole('heading', { name: 'No trending tags yet' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'No one to suggest yet' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Nothing is trending yet' })).toBeInTheDocument();
    expect(screen.getByText(/Like and comment on posts you enjoy/)).toBeInTheDocument();
  });

  it("loads the trending posts' next page from the Link the first one came with", async () => {
    const first = buildPost({ message: 'First of the trends' });
    const later = buildPost({ message: 'On the next page' });
    const next = `/api/explore/posts?cursor=${first._id}&limit=12`;
    server.use(
      http.get('/api/explore', () =>
        HttpResponse.json({ ...found, posts: [first] }, { headers: { Link: `<${next}>; rel="next"` } }),
      ),
      http.get('/api/explore/posts', ({ request }) =>
        new URL(request.url).searchParams.get('cursor') === first._id
          ? HttpResponse.json([later])
          : HttpResponse.json({ message: 'Unexpected page', code: 'Test' }, { status: 500 }),
      ),
    );
    renderWithProviders(<ExplorePage initial={null} />, { preloadedState: signedInState(me) });
    expect(await screen.findByText('First of the trends')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('On the next page')).toBeInTheDocument();
    expect(await screen.findByText('You are all caught up')).toBeInTheDocument();
  });
});
