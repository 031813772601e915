/** Issue 68, item 3: shared links for people not signed in — the sign-in redirect keeps the page, a public post previews. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from './helpers';
import { uploadImage } from './multipart';

// Stands in for Next.js: says which page it would render.
async function pageHandler(req: IncomingMessage, res: ServerResponse) {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ url: req.url }));
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ INSTANCE_NAME: 'Posts & "Friends"' }, { pageHandler });
});
afterAll(async () => {
  await t.close();
});

const visit = (url: string) => t.app.inject({ method: 'GET', url });

/** The meta tags of a page, `property` or `name` to `content`, decoded as a parser would. */
function metaOf(html: string): Map<string, string[]> {
  const decode = (s: string) =>
    s
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&amp;', '&');
  const found = new Map<string, string[]>();
  for (const [, key, value] of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g))
    found.set(key, [...(found.get(key) ?? []), decode(value)]);
  return found;
}
const one = (meta: Map<string, string[]>, key: string) => meta.get(key)?.[0];

async function publicPost(user: SignedInUser, payload: Record<string, unknown>) {
  const image = (await uploadImage(t.app, user, 'post')).secure_url;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/posts/create',
    headers: user.headers,
    payload: { tags: ['sun'], image, ...payload },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ _id: string }>();
}

describe('a visitor at a private page', () => {
  it('is sent to sign in with the page (path and query) as next', async () => {
    for (const [path, next] of [
      ['/home', '/home'],
      ['/home?feed=everyone', '/home?feed=everyone'],
      ['/tagged/sea,sun', '/tagged/sea,sun'],
      ['/profile/someone', '/profile/someone'],
      ['/settings', '/settings'],
    ]) {
      const res = await visit(path);
      expect(res.statusCode, path).toBe(302);
      const location = new URL(res.headers.location as string, 'http://h');
      expect(location.pathname, path).toBe('/login');
      expect(location.searchParams.get('next'), path).toBe(next);
    }
  });
});

describe('a public post opened by a visitor', () => {
  it('is a server-rendered preview with Open Graph and Twitter card meta, absolute URLs, everything escaped', async () => {
    const ann = await signIn(t.app);
    const message = 'Sunset <script>alert("x")</script> & "quotes" \'too\'';
    const post = await publicPost(ann, { message, alt: 'A <b>red</b> sky', tags: ['sun', 'sea'] });
    const res = await visit(`/post/${post._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const html = res.body;
    // Nothing the author wrote (nor the instance's name) reaches the page unescaped; and no script at all.
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('Posts & "Friends"');
    expect(html).toContain(
      'Sunset &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quotes&quot; &#39;too&#39;',
    );

    const meta = metaOf(html);
    const site = t.config.siteUrl;
    expect(one(meta, 'og:type')).toBe('article');
    expect(one(meta, 'og:site_name')).toBe('Posts & "Friends"');
    expect(one(meta, 'og:title')).toBe(`${ann.username} on Posts & "Friends"`);
    expect(one(meta, 'og:description')).toBe(message);
    expect(one(meta, 'twitter:description')).toBe(message);
    expect(one(meta, 'og:url')).toBe(new URL(`/post/${post._id}`, site).href);
    expect(meta.get('article:tag')).toEqual(['sun', 'sea']);
    expect(one(meta, 'twitter:card')).toBe('summary_large_image');
    expect(one(meta, 'og:image:alt')).toBe('A <b>red</b> sky');
    const image = one(meta, 'og:image')!;
    expect(image).toMatch(/^https?:\/\//);
    expect(image.startsWith(new URL(site).origin)).toBe(true);
    expect(one(meta, 'twitter:image')).toBe(image);
    // The variant's own size: the post's srcset lists it with that width.
    const shown = (await (
      await t.app.inject({ method: 'GET', url: `/api/posts/${post._id}`, headers: ann.headers })
    ).json()) as {
      imageInfo: { width: number; height: number; srcset: string };
    };
    const width = Number(one(meta, 'og:image:width'));
    expect(width).toBeGreaterThan(0);
    expect(width).toBeLessThanOrEqual(1200);
    expect(shown.imageInfo.srcset).toContain(`${new URL(image).pathname} ${width}w`);
    expect(Number(one(meta, 'og:image:height'))).toBe(
      Math.round((width * shown.imageInfo.height) / shown.imageInfo.width),
    );

    // The post itself, its counts and the way in, back to this post.
    expect(html).toContain(`>${ann.username}</a>`);
    expect(html).toContain('0 likes · 0 comments');
    expect(html).toContain('href="/tagged/sun"');
    expect(html).toContain(
      `href="/login?next=${encodeURIComponent(`/post/${post._id}`)}">Sign in to like and comment</a>`,
    );
    // Its own policy: no script, styles by hash only.
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[^']+'(;|$)/);
    expect(csp).not.toContain('script-src');
    expect(csp).not.toContain('unsafe-inline');
  });

  it('shows every photo of an album, in order, each with its alt text and size; the first fetched first (issue 71)', async () => {
    const ann = await signIn(t.app);
    const images = [];
    for (const alt of ['First <photo>', '', 'Third'])
      images.push({ image: (await uploadImage(t.app, ann, 'post')).secure_url, alt });
    const post = await publicPost(ann, { message: 'Album', images, image: undefined });
    const res = await visit(`/post/${post._id}`);
    expect(res.statusCode).toBe(200);
    const photos = [...res.body.matchAll(/<img class="photo" src="([^"]+)"[^>]*>/g)];
    expect(photos.map(([, src]) => new URL(src, 'http://h').pathname)).toEqual(
      images.map(({ image }) => new URL(image, 'http://h').pathname),
    );
    const attrs = photos.map(([tag]) => ({
      alt: /alt="([^"]*)"/.exec(tag)![1],
      sized: / width="\d+" height="\d+"/.test(tag),
      first: tag.includes('fetchpriority="high"'),
      lazy: tag.includes('loading="lazy"'),
    }));
    expect(attrs).toEqual([
      { alt: 'First &lt;photo&gt;', sized: true, first: true, lazy: false },
      { alt: 'Photo 2 of 3', sized: true, first: false, lazy: true },
      { alt: 'Third', sized: true, first: false, lazy: true },
    ]);
    // The unfurl still shows the first photo.
    expect(one(metaOf(res.body), 'og:image:alt')).toBe('First <photo>');
  });

  it('keeps a sensitive image out of the preview and its meta', async () => {
    const ann = await signIn(t.app);
    const post = await publicPost(ann, { message: 'Storm', sensitive: true, spoiler: 'Flood <i>' });
    const res = await visit(`/post/${post._id}`);
    expect(res.statusCode).toBe(200);
    const meta = metaOf(res.body);
    expect(meta.has('og:image')).toBe(false);
    expect(one(meta, 'twitter:card')).toBe('summary');
    expect(res.body).not.toContain('class="photo"');
    expect(res.body).toContain('Sensitive image: Flood &lt;i&gt;');
  });

  it("is a 404 with a way forward for a removed post, a suspended author's, an unknown or malformed id — no meta", async () => {
    const bob = await signIn(t.app);
    const removed = await createPost(t.app, bob, { message: 'Gone soon' });
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/posts/${removed._id}/manage`, headers: bob.headers }))
        .statusCode,
    ).toBeLessThan(300);
    const cat = await signIn(t.app);
    const suspended = await createPost(t.app, cat, { message: 'Suspended author' });
    expect((await visit(`/post/${suspended._id}`)).statusCode).toBe(200);
    const admin = await signIn(t.app);
    await makeAdmin(t, admin);
    const suspend = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${cat.username}/suspend`,
      headers: admin.headers,
    });
    expect(suspend.statusCode).toBe(200);

    for (const id of [removed._id, suspended._id, '01a204b8-1716-70b8-9f9d-257fe2a8924b', 'not-a-uuid', '%3Cx%3E']) {
      const res = await visit(`/post/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.headers['content-type'], id).toContain('text/html');
      expect(res.body, id).toContain('This post is not available');
      expect(res.body, id).not.toContain('og:');
      expect(res.body, id).not.toContain('Suspended author');
      expect(res.body, id).not.toContain('<x>');
      // The way forward: sign in and come back here, or the site.
      expect(res.body, id).toContain(
        `href="/login?next=${encodeURIComponent(`/post/${encodeURIComponent(decodeURIComponent(id))}`)}"`,
      );
      expect(res.body, id).toContain('href="/"');
    }
  });

  it('leaves the normal page to a signed-in viewer', async () => {
    const ann = await signIn(t.app);
    const post = await createPost(t.app, ann, { message: 'Mine' });
    const res = await t.app.inject({ method: 'GET', url: `/post/${post._id}`, headers: ann.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: `/post/${post._id}` });
  });
});
