import type { IncomingMessage, ServerResponse } from 'node:http';
import { firstLoadOf, type FirstLoad } from '../../lib/firstLoad';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, cookieHeader, cookiesOf, createTestApp, makeAdmin, signIn } from './helpers';

// Stands in for Next.js: answers with the data the page would be rendered from.
async function pageHandler(req: IncomingMessage, res: ServerResponse) {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ url: req.url, firstLoad: firstLoadOf(req) }));
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { pageHandler });
});
afterAll(async () => {
  await t.close();
});

const PRIVATE_PAGES = [
  '/home',
  '/profile/someone',
  '/tagged/sea',
  '/post/01a204b8-1716-70b8-9f9d-257fe2a8924b',
  '/settings',
  '/profile',
  '/contact',
  '/explore',
];

const open = (path: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url: path, headers: cookie ? { cookie } : {} });
const firstLoad = (body: string) => (JSON.parse(body) as { firstLoad: FirstLoad | null }).firstLoad;
const api = async (user: SignedInUser, url: string) =>
  (await t.app.inject({ method: 'GET', url, headers: user.headers })).json();

describe('private pages rendered on the server', () => {
  it('send a visitor to sign in (back to the page) before reading anything, and are never stored', async () => {
    // A post's address shows a visitor its preview instead (postPreview.test.ts).
    for (const path of PRIVATE_PAGES.filter((p) => !p.startsWith('/post/'))) {
      const res = await open(path);
      expect(res.statusCode, path).toBe(302);
      expect(res.headers.location).toBe(`/login?next=${encodeURIComponent(path)}`);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.body).not.toContain('firstLoad');
    }
  });

  it('leave the public pages to the client, without data; a member at / goes home', async () => {
    const ann = await signIn(t.app);
    for (const path of ['/login', '/createAccount']) {
      const res = await open(path, ann.headers.cookie);
      expect(res.statusCode, path).toBe(200);
      expect(firstLoad(res.body), path).toBeNull();
    }
    // `/` is the visitors' landing page (spec: the logged-out navbar): a member is sent to /home.
    const home = await open('/', ann.headers.cookie);
    expect(home.statusCode).toBe(302);
    expect(home.headers.location).toBe('/home');
    expect(home.headers['cache-control']).toBe('private, no-store');
    const visitor = await open('/');
    expect(visitor.statusCode).toBe(200);
    expect(firstLoad(visitor.body)).toBeNull();
    // A session that no longer holds is a visitor's landing page, not a redirect.
    expect((await open('/', 'access_token=made-up')).statusCode).toBe(200);
  });

  it("render the mailed links' pages for anyone, a signed-in viewer's with the viewer", async () => {
    const ann = await signIn(t.app);
    for (const path of ['/verifyEmail?token=abc', '/resetPassword', '/verifyEmail']) {
      const visitor = await open(path);
      expect(visitor.statusCode, path).toBe(200);
      expect(visitor.headers['cache-control'], path).toBe('private, no-store');
      expect(firstLoad(visitor.body), path).toBeNull();
      const member = await open(path, ann.headers.cookie);
      expect(member.statusCode, path).toBe(200);
      expect(firstLoad(member.body), path).toEqual({
        user: await api(ann, '/api/auth/getLoggedUser'),
        unread: 0,
        page: null,
      });
    }
  });

  it("hand over the viewer's unread count, so the bells' badge is in the first paint", async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${ann.username}/follow`,
      headers: bob.headers,
      payload: {},
    });
    expect(await api(ann, '/api/notifications/unread')).toEqual({ count: 1 });
    for (const path of ['/home', '/settings', '/verifyEmail']) {
      const res = await open(path, ann.headers.cookie);
      expect(firstLoad(res.body)?.unread, path).toBe(1);
    }
  });

  it("render /contact with the instance's name and address as the API answers them", async () => {
    const ann = await signIn(t.app);
    const res = await open('/contact', ann.headers.cookie);
    expect(res.statusCode).toBe(200);
    const instance = await api(ann, '/api/instance');
    expect(instance).toEqual({
      name: t.config.instanceName,
      contactEmail: t.config.contactEmail,
      maxPostImages: t.config.maxPostImages,
    });
    expect(firstLoad(res.body)).toEqual({
      user: await api(ann, '/api/auth/getLoggedUser'),
      unread: 0,
      page: { kind: 'contact', instance },
    });
  });

  it('render /explore with the trends and suggestions exactly as the API answers them (issue 73)', async () => {
    const ann = await signIn(t.app);
    const res = await open('/explore', ann.headers.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(firstLoad(res.body)).toEqual({
      user: await api(ann, '/api/auth/getLoggedUser'),
      unread: 0,
      page: { kind: 'explore', explore: await api(ann, '/api/explore'), postsNext: null },
    });
  });

  it('render /settings with the viewer alone: the forms show their own account', async () => {
    const ann = await signIn(t.app);
    const res = await open('/settings', ann.headers.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(firstLoad(res.body)).toEqual({ user: await api(ann, '/api/auth/getLoggedUser'), unread: 0, page: null });
  });

  it('send /profile straight on to my own profile', async () => {
    const ann = await signIn(t.app);
    const res = await open('/profile', ann.headers.cookie);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/profile/${encodeURIComponent(ann.username)}`);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('render /home with the viewer and the feed exactly as the API answers it, with no-store', async () => {
    const ann = await signIn(t.app);
    const post = await createPost(t.app, ann, { message: 'Mine' });
    const res = await open('/home', ann.headers.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const data = firstLoad(res.body)!;
    expect(data.user).toEqual(await api(ann, '/api/auth/getLoggedUser'));
    expect(data.page).toEqual({
      kind: 'feed',
      feed: 'following',
      posts: { items: await api(ann, '/api/posts?feed=following'), next: null },
    });
    expect(data.page?.kind === 'feed' && data.page.posts.items[0]._id).toBe(post._id);
  });

  it('render /home?feed=everyone on the Everyone tab with that feed (issue 68: the tab is in the address)', async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    const post = await createPost(t.app, bob, { message: 'Not followed' });
    const data = firstLoad((await open('/home?feed=everyone', ann.headers.cookie)).body)!;
    expect(data.page).toMatchObject({ kind: 'feed', feed: 'all' });
    expect(data.page?.kind === 'feed' && data.page.posts.items).toEqual(await api(ann, '/api/posts?feed=all'));
    expect(data.page?.kind === 'feed' && data.page.posts.items.some((item) => item._id === post._id)).toBe(true);
    // Anything else is Following, as the page reads it (lib/pages.ts homeFeedOf).
    for (const query of ['?feed=all', '?feed=', '?feed=everyone&feed=everyone']) {
      const other = firstLoad((await open(`/home${query}`, ann.headers.cookie)).body)!;
      expect(other.page?.kind === 'feed' && other.page.feed, query).toBe('following');
    }
  });

  it('carry the next-page link the API gives', async () => {
    const ann = await signIn(t.app);
    for (let i = 0; i < 13; i += 1) await createPost(t.app, ann, { tags: ['many'] });
    const data = firstLoad((await open('/tagged/%23Many,many', ann.headers.cookie)).body)!;
    const page = data.page!;
    expect(page.kind).toBe('tagged');
    if (page.kind !== 'tagged') return;
    expect(page.tags).toEqual(['Many']);
    expect(page.posts.items).toHaveLength(12);
    const direct = await t.app.inject({ method: 'GET', url: '/api/posts/tagged?tags=Many', headers: ann.headers });
    expect(`<${page.posts.next}>; rel="next"`).toBe(direct.headers.link);
  });

  it("render someone else's profile and post with the viewer's own state, never the owner's", async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    const post = await createPost(t.app, ann, { message: 'By Ann' });
    await t.app.inject({ method: 'PATCH', url: `/api/posts/${post._id}/like`, headers: ann.headers });
    await t.app.inject({
      method: 'POST',
      url: `/api/posts/${post._id}/comments`,
      headers: ann.headers,
      payload: { message: 'Ann here' },
    });

    const profileRes = await open(`/profile/${ann.username.toUpperCase()}`, bob.headers.cookie);
    const profile = firstLoad(profileRes.body)!;
    expect(profile.user._id).toBe(bob.id);
    expect(profile.page).toEqual({
      kind: 'profile',
      profile: (await api(bob, `/api/users/${ann.username}`)).user,
      posts: { items: await api(bob, `/api/users/${ann.username}/posts`), next: null },
    });
    expect(profileRes.body).not.toContain(ann.email);

    const postRes = await open(`/post/${post._id}`, bob.headers.cookie);
    const detail = firstLoad(postRes.body)!;
    expect(detail.user.email).toBe(bob.email);
    expect(detail.page?.kind).toBe('post');
    if (detail.page?.kind !== 'post') return;
    expect(detail.page.post).toEqual(await api(bob, `/api/posts/${post._id}`));
    expect(detail.page.post.myReaction).toBeNull();
    expect(detail.page.post.likesCount).toBe(1);
    expect(detail.page.post.comments.map((c) => c.message)).toEqual(['Ann here']);
    expect(detail.page.commentsNext).toBeNull();
    expect(postRes.body).not.toContain(ann.email);
  });

  it('render a missing post with the viewer only: the page reports it itself', async () => {
    const ann = await signIn(t.app);
    const data = firstLoad((await open(PRIVATE_PAGES[3], ann.headers.cookie)).body)!;
    expect(data.user._id).toBe(ann.id);
    expect(data.page).toBeNull();
  });

  it('renew a lapsed access token from the refresh cookie and set the new cookies', async () => {
    const ann = await signIn(t.app);
    const res = await open('/home', cookieHeader({ refresh_token: ann.cookies.refresh_token }));
    expect(res.statusCode).toBe(200);
    const renewed = cookiesOf(res);
    expect(Object.keys(renewed).sort()).toEqual(['access_token', 'has_session', 'refresh_token']);
    expect(renewed.refresh_token).not.toBe(ann.cookies.refresh_token);
    expect(res.cookies.find((c) => c.name === 'access_token')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
    });
    expect(firstLoad(res.body)!.user._id).toBe(ann.id);
    // The new cookies work for the API.
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/getLoggedUser',
      headers: { cookie: cookieHeader(renewed) },
    });
    expect(me.json()._id).toBe(ann.id);
  });

  it('fall back to the client shell (no data) when the refresh cookie does not renew', async () => {
    const res = await open('/home', cookieHeader({ refresh_token: 'not-a-real-token', has_session: '1' }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(firstLoad(res.body)).toBeNull();
    expect(res.cookies).toEqual([]);
  });

  it('send a member away from /admin to /home, and render it for an admin (issue 36)', async () => {
    const member = await signIn(t.app);
    const res = await open('/admin', member.headers.cookie);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/home');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const admin = await signIn(t.app);
    await makeAdmin(t, admin);
    const page = await open('/admin', admin.headers.cookie);
    expect(page.statusCode).toBe(200);
    expect(firstLoad(page.body)?.user).toMatchObject({ username: admin.username, role: 'admin' });
  });

  it('redirect after logout', async () => {
    const ann = await signIn(t.app);
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: ann.headers });
    // The browser drops the cleared cookies; a stale access token alone is refused too.
    const res = await open('/home', cookieHeader({ access_token: ann.cookies.access_token }));
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?next=%2Fhome');
  });
});
