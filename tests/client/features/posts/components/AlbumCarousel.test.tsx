import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { PostCard } from '../../../../../features/posts/components/PostCard';
import type { PostImage } from '../../../../../lib/types';
import { buildPost, buildUser } from '../../../support/factories';
import { renderWithProviders, signedInState } from '../../../support/renderWithProviders';
import { server } from '../../../support/server';

const me = buildUser({ username: 'me' });

const photo = (n: number, width: number, height: number, alt = ''): PostImage => ({
  image: `/media/p${n}.jpg`,
  imageInfo: { width, height, thumbhash: '', srcset: `/media/p${n}-540.webp 540w` },
  alt,
  crop: { x: 0.5, y: 0.5, fit: false },
});

/** An album of three: a landscape first photo, a portrait, a square. */
const album = (overrides: Parameters<typeof buildPost>[0] = {}) => {
  const images = [photo(1, 900, 600, 'A lake'), photo(2, 600, 900, 'A tower'), photo(3, 800, 800)];
  return buildPost({
    _id: 'a1',
    creator: 'bob',
    image: images[0].image,
    imageInfo: images[0].imageInfo,
    alt: 'A lake',
    images,
    ...overrides,
  });
};

const slides = () => screen.getAllByRole('group', { name: /^\d of 3$/ });
const shown = () => slides().filter((slide) => !slide.hasAttribute('inert'));

/** IntersectionObserver (absent in jsdom): every observed element is on screen at once. */
function observeAllOnScreen() {
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(private callback: IntersectionObserverCallback) {}
      observe(target: Element) {
        this.callback([{ isIntersecting: true, target } as IntersectionObserverEntry], this as never);
      }
      disconnect() {}
      unobserve() {}
    },
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AlbumCarousel (issue 71, item 3)', () => {
  it('leaves a one-photo post as it was: one image link, no carousel', () => {
    renderWithProviders(<PostCard post={buildPost({ _id: 'p1', creator: 'bob', alt: 'A boat' })} />);
    expect(screen.queryByRole('group', { name: /Photos by/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next photo' })).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'A boat' }).closest('a')).toHaveAttribute('href', '/post/p1');
  });

  it('shows the first photo, the others inert, in one box from the first photo’s stored size', () => {
    renderWithProviders(<PostCard post={album()} />);
    const carousel = screen.getByRole('group', { name: 'Photos by bob' });
    expect(carousel).toHaveAttribute('aria-roledescription', 'carousel');
    expect(slides()).toHaveLength(3);
    expect(slides()[0]).toHaveAttribute('aria-roledescription', 'slide');
    expect(shown()).toEqual([slides()[0]]);
    expect(within(carousel).getByText('1 of 3')).toHaveAttribute('aria-live', 'polite');
    // Every photo is laid out from the start, each box 3:2 (the first's), so nothing moves later.
    const imgs = carousel.querySelectorAll('img');
    expect([...imgs].map((img) => img.getAttribute('alt'))).toEqual([
      'A lake',
      'A tower',
      'Photo 3 of 3 posted by bob',
    ]);
    expect([...imgs].map((img) => [img.getAttribute('width'), img.getAttribute('height')])).toEqual([
      ['900', '600'],
      ['600', '900'],
      ['800', '800'],
    ]);
    for (const img of imgs) expect(img.parentElement).toHaveStyle({ aspectRatio: '1.5' });
    // Each photo links to the post (and likes it on a double tap).
    for (const img of imgs) expect(img.closest('a')).toHaveAttribute('href', '/post/a1');
    expect(screen.queryByRole('button', { name: 'Previous photo' })).not.toBeInTheDocument();
  });

  it('moves with Next and Previous, announcing "2 of 3"; at the last photo focus goes to Previous', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PostCard post={album()} />);
    await user.click(screen.getByRole('button', { name: 'Next photo' }));
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
    expect(shown()).toEqual([slides()[1]]);
    expect(slides()[0]).toHaveAttribute('inert');
    await user.click(screen.getByRole('button', { name: 'Next photo' }));
    expect(screen.getByText('3 of 3')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next photo' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous photo' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Previous photo' }));
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
  });

  it('answers ← and → while focus is inside, keeping focus on the photo shown; not with a modifier', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PostCard post={album()} />);
    const links = () => slides().map((slide) => within(slide).getByRole('link', { hidden: true }));
    links()[0].focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
    expect(links()[1]).toHaveFocus();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByText('1 of 3')).toBeInTheDocument();
    expect(links()[0]).toHaveFocus();
    // Past the first photo: nothing.
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByText('1 of 3')).toBeInTheDocument();
  });

  it('follows a swipe: the photo shown is where the track’s scroll stopped', () => {
    renderWithProviders(<PostCard post={album()} />);
    const track = slides()[0].parentElement!;
    Object.defineProperty(track, 'clientWidth', { configurable: true, value: 400 });
    track.scrollLeft = 790;
    fireEvent.scroll(track);
    expect(screen.getByText('3 of 3')).toBeInTheDocument();
    expect(shown()).toEqual([slides()[2]]);
    track.scrollLeft = 410;
    fireEvent.scroll(track);
    expect(screen.getByText('2 of 3')).toBeInTheDocument();
  });

  it('fetches the next photo once the album is near the screen, and the one after when moving on', async () => {
    observeAllOnScreen();
    const user = userEvent.setup();
    renderWithProviders(<PostCard post={album()} />);
    const loading = () => [...document.querySelectorAll('img')].map((img) => img.getAttribute('loading'));
    await waitFor(() => expect(loading()).toEqual(['eager', 'eager', 'lazy']));
    await user.click(screen.getByRole('button', { name: 'Next photo' }));
    expect(loading()).toEqual(['eager', 'eager', 'eager']);
  });

  it('fetches nothing past the first photo while the album is far from the screen', () => {
    renderWithProviders(<PostCard post={album()} />);
    expect([...document.querySelectorAll('img')].map((img) => img.getAttribute('loading'))).toEqual([
      'lazy',
      'lazy',
      'lazy',
    ]);
  });

  it('likes the post on a double tap of any photo, not only the first', async () => {
    const user = userEvent.setup();
    let likes = 0;
    server.use(
      http.patch('/api/posts/a1/like', () => {
        likes += 1;
        return HttpResponse.json({ likesCount: 1, dislikesCount: 0, myReaction: 'like' });
      }),
    );
    const { container } = renderWithProviders(<PostCard post={album()} />, { preloadedState: signedInState(me) });
    await user.click(screen.getByRole('button', { name: 'Next photo' }));
    await user.dblClick(screen.getByRole('img', { name: 'A tower' }));
    // The heart is drawn by the second click itself (and goes after a moment): over photo 2 only.
    expect(slides()[1].querySelector('[data-like-heart]')).not.toBeNull();
    expect(container.querySelectorAll('[data-like-heart]')).toHaveLength(1);
    await vi.waitFor(() => expect(likes).toBe(1));
  });

  it('shows a sensitive album’s photos all at once when one is asked for', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PostCard post={album({ sensitive: true, spoiler: 'Spiders' })} />);
    expect(document.querySelectorAll('img')).toHaveLength(0);
    await user.click(within(slides()[0]).getByRole('button', { name: 'Show sensitive image: Spiders' }));
    expect(document.querySelectorAll('img')).toHaveLength(3);
  });

  it('on the post page opens the full view at the photo pressed, moves through the album there, and the page follows', async () => {
    const user = userEvent.setup();
    renderWithProviders(<PostCard post={album()} standalone />);
    await user.click(screen.getByRole('button', { name: 'Next photo' }));
    await user.click(within(slides()[1]).getByRole('button', { name: /A tower/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Photo, full view' });
    expect(within(dialog).getByText('2 of 3')).toBeInTheDocument();
    const viewerSlides = within(dialog).getAllByRole('group', { name: /^\d of 3$/ });
    expect(viewerSlides.filter((slide) => !slide.hasAttribute('inert'))).toEqual([viewerSlides[1]]);
    // The dialog holds focus (on Close): its arrows work from there.
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(within(dialog).getByText('3 of 3')).toBeInTheDocument();
    await act(async () => {
      await user.keyboard('{Escape}');
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Closed on the third photo: the page's album shows it too, with focus on it.
    await waitFor(() => expect(shown()).toEqual([slides()[2]]));
    expect(within(slides()[2]).getByRole('button')).toHaveFocus();

    // Opened again from there and closed on the first: back to the first.
    await user.click(within(slides()[2]).getByRole('button'));
    const again = await screen.findByRole('dialog', { name: 'Photo, full view' });
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(within(again).getByText('1 of 3')).toBeInTheDocument();
    await user.click(within(again).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(shown()).toEqual([slides()[0]]));
  });
});
