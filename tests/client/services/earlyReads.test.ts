import { EARLY_READS_GLOBAL, EARLY_READS_SCRIPT, POST_IMAGE_SIZES } from '../../../lib/earlyReadsScript';
import { authApi } from '../../../services/authApi';
import { postsApi } from '../../../services/postsApi';
import { usersApi } from '../../../services/usersApi';

const post = { _id: 'p1', image: '/media/post/p1/900.webp', imageInfo: { width: 900, height: 600, thumbhash: null, srcset: '/media/post/p1/540.webp 540w, /media/post/p1/900.webp 900w' } };
const user = { _id: 'u1', username: 'ana b', banner: '/media/banner/b.webp' };

/** What the server would answer, by path; the fetch spy records every URL asked for. */
function answer(url: URL): unknown {
  if (url.pathname === '/api/auth/getLoggedUser') return user;
  if (url.pathname.startsWith('/api/users/') && url.pathname.endsWith('/posts')) return [post];
  if (url.pathname.startsWith('/api/users/')) return { user };
  if (url.pathname === '/api/posts/p1') return post;
  return [post];
}

function openDocument(path: string): string[] {
  window.history.replaceState(null, '', path);
  const asked: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input));
    asked.push(url.href);
    return Response.json(answer(url));
  });
  new Function(EARLY_READS_SCRIPT)();
  return asked;
}

const preloads = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')].map((l) => ({
    href: l.getAttribute('href'), srcset: l.getAttribute('imagesrcset'), sizes: l.getAttribute('imagesizes'), priority: l.getAttribute('fetchpriority'),
  }));

describe('early reads', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    delete (window as unknown as Record<string, unknown>)[EARLY_READS_GLOBAL];
    document.head.innerHTML = '';
    window.history.replaceState(null, '', '/');
  });

  it.each([
    ['/home', () => postsApi.feed('following')],
    ['/post/p1', () => postsApi.get('p1')],
    ['/profile/ana%20b', () => Promise.all([usersApi.profile('ana b'), postsApi.byUser('ana b')])],
    ['/tagged/%23Sea,%20hiking,sea,', () => postsApi.tagged(['Sea', 'hiking'])],
  ])('%s: the app gets the reads the document started, without asking again', async (path, pageReads) => {
    const started = [...openDocument(path)];
    expect(started.length).toBeGreaterThan(1);
    await Promise.all([authApi.getLoggedUser(), pageReads()]);
    // Nothing more went out: each read the app made was one the document had started.
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(started.length);
  });

  it("preloads the first post's image with the card's srcset and sizes", async () => {
    openDocument('/home');
    await vi.waitFor(() => expect(preloads()).toHaveLength(1));
    expect(preloads()[0]).toEqual({ href: post.image, srcset: post.imageInfo.srcset, sizes: POST_IMAGE_SIZES, priority: 'high' });
  });

  it('preloads the banner of a profile', async () => {
    openDocument('/profile/ana%20b');
    await vi.waitFor(() => expect(preloads()).toEqual([{ href: user.banner, srcset: null, sizes: null, priority: 'high' }]));
  });

  it('starts nothing on the public pages', () => {
    for (const path of ['/', '/login', '/createAccount']) expect(openDocument(path)).toEqual([]);
  });

  it('each read is taken once: a second request goes out', async () => {
    const started = openDocument('/home').length;
    await postsApi.feed('following');
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(started);
    await postsApi.feed('following');
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(started + 1);
  });
});
