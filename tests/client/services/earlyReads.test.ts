import { EARLY_READS_GLOBAL, earlyReadsOf, earlyReadsScript } from '../../../lib/earlyReadsScript';
import { POST_IMAGE_SIZES } from '../../../lib/firstLoad';
import { PRIVATE_PAGES } from '../../../lib/pageReads';
import { OPEN_ROUTES, PUBLIC_ROUTES } from '../../../lib/pages';
import { authApi } from '../../../features/auth/state/authApi';
import { instanceApi } from '../../../features/contact/state/instanceApi';
import { exploreApi } from '../../../features/explore/state/exploreApi';
import { notificationsApi } from '../../../features/notifications/state/notificationsApi';
import { postsApi } from '../../../features/posts/state/postsApi';
import { usersApi } from '../../../features/profile/state/usersApi';
import { http, HttpResponse } from 'msw';
import { server } from '../support/server';

const post = {
  _id: 'p1',
  image: '/media/post/p1/900.webp',
  imageInfo: {
    width: 900,
    height: 600,
    thumbhash: null,
    srcset: '/media/post/p1/540.webp 540w, /media/post/p1/900.webp 900w',
  },
};
const user = { _id: 'u1', username: 'ana b', banner: '/media/banner/b.webp' };

/** What the server would answer, by path; the fetch spy records every URL asked for. */
function answer(url: URL): unknown {
  if (url.pathname === '/api/auth/getLoggedUser') return user;
  if (url.pathname.startsWith('/api/users/') && url.pathname.endsWith('/posts')) return [post];
  if (url.pathname.startsWith('/api/users/')) return { user };
  if (url.pathname === '/api/posts/p1') return post;
  if (url.pathname === '/api/instance') return { name: 'Posts', contactEmail: 'admin@example.com' };
  return [post];
}

/** What the app asked the network for through axios (XMLHttpRequest, seen by msw): none of the early reads. */
let wentOut: string[] = [];

/** Runs the document's script for a route as Next.js hands it to the document (its pattern and decoded params). */
function openDocument(route: string, query: Record<string, string> = {}): string[] {
  const asked: string[] = [];
  server.use(
    http.all('*', ({ request }) => {
      wentOut.push(request.url);
      return HttpResponse.json(answer(new URL(request.url)) as object);
    }),
  );
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input));
    asked.push(url.href);
    return Response.json(answer(url));
  });
  const reads = earlyReadsOf(route, query);
  if (reads) new Function(earlyReadsScript(reads))();
  return asked;
}

const absolute = (url: string) => new URL(url, location.href).href;

const preloads = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')].map((l) => ({
    href: l.getAttribute('href'),
    srcset: l.getAttribute('imagesrcset'),
    sizes: l.getAttribute('imagesizes'),
    priority: l.getAttribute('fetchpriority'),
  }));

/** Every private page of the table, with its params and the reads its components make through the API modules. */
const pages: [route: string, params: Record<string, string>, pageReads: () => Promise<unknown>][] = [
  ['/home', {}, () => postsApi.feed('following')],
  ['/post/[id]', { id: 'p1' }, () => postsApi.get('p1')],
  [
    '/profile/[profileName]',
    { profileName: 'ana b' },
    () => Promise.all([usersApi.profile('ana b'), postsApi.byUser('ana b')]),
  ],
  ['/tagged/[tags]', { tags: '#Sea, hiking,sea,' }, () => postsApi.tagged(['Sea', 'hiking'])],
  ['/contact', {}, () => instanceApi.instance()],
  ['/notifications', {}, () => notificationsApi.list()],
  ['/saved', {}, () => postsApi.saved()],
  ['/explore', {}, () => exploreApi.get()],
  ['/settings', {}, async () => undefined],
  ['/profile', {}, async () => undefined],
  // The admin panel reads after hydration, in its own chunk: nothing early.
  ['/admin', {}, async () => undefined],
];

describe('early reads', () => {
  // They are taken within 10 s of the page's start (EARLY_READS_TTL_MS): on a busy machine this
  // file may reach its tests later than that after jsdom's start, which is not what is tested here.
  beforeEach(() => vi.spyOn(performance, 'now').mockReturnValue(0));
  afterEach(() => {
    wentOut = [];
    vi.restoreAllMocks();
    delete (window as unknown as Record<string, unknown>)[EARLY_READS_GLOBAL];
    document.head.innerHTML = '';
  });

  it('cover every private page of the table', () => {
    expect(pages.map(([route]) => route).sort()).toEqual(Object.keys(PRIVATE_PAGES).sort());
  });

  it.each(pages)(
    "%s: the script fetches exactly the table's reads, and the app takes each of them without asking again",
    async (route, params, pageReads) => {
      const started = [...openDocument(route, params)];
      expect(started).toEqual(['/api/auth/getLoggedUser', ...PRIVATE_PAGES[route].reads(params)].map(absolute));
      await Promise.all([authApi.getLoggedUser(), pageReads()]);
      // Nothing more went out: each read the app made was one the document had started.
      expect(vi.mocked(fetch)).toHaveBeenCalledTimes(started.length);
      expect(wentOut).toEqual([]);
    },
  );

  it('reads the tags of a /tagged address as the page does: trimmed, without #, once each', () => {
    expect(openDocument('/tagged/[tags]', { tags: '#Sea, hiking,sea,' })[1]).toBe(
      absolute('/api/posts/tagged?tags=Sea%2Chiking'),
    );
    expect(openDocument('/tagged/[tags]', { tags: ' , #' })).toEqual([absolute('/api/auth/getLoggedUser')]);
  });

  it("preloads the first post's image with the card's srcset and sizes", async () => {
    openDocument('/home');
    await vi.waitFor(() => expect(preloads()).toHaveLength(1));
    expect(preloads()[0]).toEqual({
      href: post.image,
      srcset: post.imageInfo.srcset,
      sizes: POST_IMAGE_SIZES,
      priority: 'high',
    });
  });

  it("preloads a post's image", async () => {
    openDocument('/post/[id]', { id: 'p1' });
    await vi.waitFor(() =>
      expect(preloads()).toEqual([
        { href: post.image, srcset: post.imageInfo.srcset, sizes: POST_IMAGE_SIZES, priority: 'high' },
      ]),
    );
  });

  it('preloads the banner of a profile', async () => {
    openDocument('/profile/[profileName]', { profileName: 'ana b' });
    await vi.waitFor(() =>
      expect(preloads()).toEqual([{ href: user.banner, srcset: null, sizes: null, priority: 'high' }]),
    );
  });

  it("starts nothing on the public and the open pages (no 401 in a visitor's console)", () => {
    for (const route of PUBLIC_ROUTES) expect(earlyReadsOf(route, {})).toBeNull();
    for (const route of OPEN_ROUTES) expect(earlyReadsOf(route, {}), route).toBeNull();
  });

  it('cannot be closed by an address', () => {
    const script = earlyReadsScript([{ url: '/api/posts/</script><script>alert(1)</script>' }]);
    expect(script).not.toContain('</');
  });

  it('each read is taken once: a second request goes out', async () => {
    const started = openDocument('/home').length;
    await postsApi.feed('following');
    expect(wentOut).toEqual([]);
    await postsApi.feed('following');
    expect(wentOut).toEqual([absolute('/api/posts?feed=following')]);
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(started);
  });
});
