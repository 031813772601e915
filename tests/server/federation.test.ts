/**
 * Federation's discovery and objects (issue 32, items 1 and 2; server/federation/): WebFinger,
 * NodeInfo, host-meta, the actors with their keys and collections, posts and comments as Notes,
 * content negotiation beside the pages, and the inbox's body checks. Through `inject` on SQLite and
 * PostgreSQL; the objects' JSON is read back with `@fedify/vocab` as another server would.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Create, Hashtag, Image, Mention, Note, OrderedCollection, OrderedCollectionPage, Person } from '@fedify/vocab';
import { loadConfig } from '../../server/config';
import { newId } from '../../server/domain/ids';
import { createPost, remoteUserRow, userRow } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { blurhashOfThumbhash } from '../../server/media/blurhash';

const SITE = 'https://posts.test';
const AP = { accept: 'application/activity+json' };
const LD = { accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' };
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** Stands in for Next.js: answers every page it is handed. */
const pages: string[] = [];
async function pageHandler(req: IncomingMessage, res: ServerResponse) {
  pages.push(req.url ?? '');
  res.statusCode = 200;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end('<!doctype html><title>page</title>');
}

let t: TestApp;
let ann: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: SITE }, { pageHandler });
  ann = await signIn(t.app, { username: 'Ann' });
  bob = await signIn(t.app, { username: 'bob' });
  await t.db.kysely
    .updateTable('users')
    .set({
      description: 'Hello <world>\nsecond line',
      avatar: '/media/avatar/a1/128.webp',
      banner: '/media/banner/b1/1500.jpg',
    })
    .where('id', '=', ann.id)
    .execute();
});
afterAll(async () => t.close());

const get = (url: string, headers: Record<string, string> = AP) => t.app.inject({ method: 'GET', url, headers });

async function getJson(url: string, headers: Record<string, string> = AP) {
  const res = await get(url, headers);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json() as Record<string, unknown>;
}

const actorUri = (user: { id: string }) => `${SITE}/users/${user.id}`;

describe('discovery', () => {
  it('WebFinger finds a person by acct:, by their actor URI and by their profile page', async () => {
    for (const resource of [`acct:ann@posts.test`, `acct:Ann@posts.test`, actorUri(ann), `${SITE}/profile/Ann`]) {
      const res = await get(`/.well-known/webfinger?resource=${encodeURIComponent(resource)}`, {});
      expect(res.statusCode, resource).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/jrd\+json/);
      const jrd = res.json();
      expect(jrd.subject.toLowerCase()).toBe(
        resource.startsWith('acct:') ? resource.toLowerCase() : resource.toLowerCase(),
      );
      expect(jrd.links).toEqual(
        expect.arrayContaining([
          { rel: 'self', type: 'application/activity+json', href: actorUri(ann) },
          { rel: 'http://webfinger.net/rel/profile-page', href: `${SITE}/profile/Ann` },
        ]),
      );
    }
    expect((await get('/.well-known/webfinger', {})).statusCode).toBe(400);
    for (const resource of ['acct:nobody@posts.test', 'acct:ann@elsewhere.example', `${SITE}/users/${newId()}`]) {
      const res = await get(`/.well-known/webfinger?resource=${encodeURIComponent(resource)}`, {});
      expect(res.statusCode, resource).toBe(404);
    }
  });

  it('NodeInfo 2.1 names the software posts, its usage and open registrations, with Mastodon as upstream', async () => {
    await createPost(t.app, bob, { message: 'counted' });
    const index = await getJson('/.well-known/nodeinfo', {});
    expect(index.links).toEqual([
      expect.objectContaining({ rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1', href: `${SITE}/nodeinfo/2.1` }),
    ]);
    const info = await getJson('/nodeinfo/2.1', {});
    const users = await t.db.kysely.selectFrom('users').select('id').execute();
    const posts = await t.db.kysely.selectFrom('posts').select('id').execute();
    expect(info).toMatchObject({
      version: '2.1',
      software: { name: 'posts' },
      protocols: ['activitypub'],
      openRegistrations: true,
      usage: { users: { total: users.length, activeMonth: 1, activeHalfyear: 1 }, localPosts: posts.length },
      metadata: { upstream: { name: 'mastodon', version: '4.3.0' } },
    });
  });

  it('host-meta points at WebFinger', async () => {
    const res = await get('/.well-known/host-meta', {});
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xrd\+xml/);
    expect(res.body).toContain(`template="${SITE}/.well-known/webfinger?resource={uri}"`);
  });
});

describe('a local user as a Person', () => {
  it('has every field, at /users/{id} and at their profile page for ActivityPub clients', async () => {
    const json = await getJson(`/profile/Ann`);
    expect(await getJson(`/users/${ann.id}`, LD)).toEqual(json);
    const person = await Person.fromJsonLd(json);
    expect(person.id?.href).toBe(actorUri(ann));
    expect(person.preferredUsername).toBe('Ann');
    expect(person.name).toBe('Ann');
    expect(person.summary).toBe('<p>Hello &lt;world&gt;<br>second line</p>');
    expect(person.url?.href).toBe(`${SITE}/profile/Ann`);
    const icon = (await person.getIcon()) as Image;
    expect(icon.url?.href).toBe(`${SITE}/media/avatar/a1/128.webp`);
    expect(icon.mediaType).toBe('image/webp');
    expect(((await person.getImage()) as Image).url?.href).toBe(`${SITE}/media/banner/b1/1500.jpg`);
    expect(person.inboxId?.href).toBe(`${actorUri(ann)}/inbox`);
    expect(person.outboxId?.href).toBe(`${actorUri(ann)}/outbox`);
    expect(person.followersId?.href).toBe(`${actorUri(ann)}/followers`);
    expect(person.followingId?.href).toBe(`${actorUri(ann)}/following`);
    expect(person.endpoints?.sharedInbox?.href).toBe(`${SITE}/inbox`);
    const key = await person.getPublicKey();
    expect(key?.ownerId?.href).toBe(actorUri(ann));
    expect((key?.publicKey?.algorithm as { name: string }).name).toBe('RSASSA-PKCS1-v1_5');
    const methods = [];
    for await (const method of person.getAssertionMethods()) methods.push(method);
    expect(methods.map((m) => m.publicKey?.algorithm.name)).toEqual(['RSASSA-PKCS1-v1_5', 'Ed25519']);
    expect(json.publicKey).toMatchObject({ id: `${actorUri(ann)}#main-key`, owner: actorUri(ann) });
  });

  it('keeps the keys it made once: the same on every read, after a restart, and in its table', async () => {
    const first = (await getJson(`/users/${ann.id}`)).publicKey;
    expect((await getJson(`/users/${ann.id}`)).publicKey).toEqual(first);
    const rows = await t.db.kysely
      .selectFrom('federation_keys')
      .select('kind')
      .where('user_id', '=', ann.id)
      .orderBy('kind')
      .execute();
    expect(rows.map((r) => r.kind)).toEqual(['ed25519', 'rsa']);
    const again = await createTestApp({ PUBLIC_URL: SITE }, { sameDatabaseAs: t });
    try {
      const res = await again.app.inject({ method: 'GET', url: `/users/${ann.id}`, headers: AP });
      expect(res.json().publicKey).toEqual(first);
    } finally {
      await again.app.close();
      await again.db.close();
    }
  });

  it('gives browsers the pages, marked as varying by Accept', async () => {
    pages.length = 0;
    for (const url of ['/profile/Ann', `/profile/nobody`]) {
      const res = await get(url, { ...BROWSER, ...ann.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers.vary).toMatch(/Accept/);
    }
    expect(pages).toEqual(['/profile/Ann', '/profile/nobody']);
    // An ActivityPub client asking for someone unknown gets the page's own answer.
    expect((await get('/profile/nobody', { ...AP, ...ann.headers })).headers['content-type']).toMatch(/^text\/html/);
  });

  it('is not served for unknown people, and gone (410, a Tombstone) while suspended', async () => {
    const gone = userRow(`sus_${newId().slice(-6)}`, { suspended_at: new Date().toISOString() });
    await t.db.kysely.insertInto('users').values(gone).execute();
    for (const id of [newId(), 'not-a-uuid']) {
      const res = await get(`/users/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NotFound' });
    }
    const res = await get(`/users/${gone.id}`);
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ type: 'Tombstone', id: actorUri(gone) });
  });

  it("sends a browser to the person's profile page (303), and anyone else to the pages' 404", async () => {
    const page = await get(`/users/${ann.id}`, { ...BROWSER, ...ann.headers });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/profile/Ann');
    expect(page.headers.vary).toMatch(/Accept/);
    // Without an Accept at all too (a link opened by a program that asks for nothing in particular).
    expect((await t.app.inject({ method: 'GET', url: `/users/${ann.id}` })).headers.location).toBe('/profile/Ann');
    // ActivityPub clients still get the actor.
    expect((await getJson(`/users/${ann.id}`)).id).toBe(actorUri(ann));

    const suspended = userRow(`sus_${newId().slice(-6)}`, { suspended_at: new Date().toISOString() });
    const elsewhere = remoteUserRow('elsewhere.example');
    await t.db.kysely.insertInto('users').values([suspended, elsewhere]).execute();
    pages.length = 0;
    const others = [newId(), 'not-a-uuid', suspended.id, elsewhere.id];
    for (const id of others) {
      const res = await get(`/users/${id}`, BROWSER);
      expect(res.headers.location, id).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    expect(pages).toEqual(others.map((id) => `/users/${id}`));
  });
});

describe('a post as a Note', () => {
  let postId: string;

  beforeAll(async () => {
    const post = await createPost(t.app, ann, { message: 'Look @bob & @nobody\n\nat <this>', tags: ['Sun', 'Été'] });
    postId = post._id;
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/posts/${postId}/manage`,
      headers: ann.headers,
      payload: {
        post: { alt: 'A yellow sun', sensitive: true, spoiler: 'Bright light', crop: { x: 0.25, y: 0.75, fit: false } },
      },
    });
    expect(edit.statusCode, edit.body).toBe(200);
  });

  it('carries the message as HTML, the image as a one-item attachment array, tags, mentions and addressing', async () => {
    const json = await getJson(`/post/${postId}`);
    expect(Array.isArray(json.attachment)).toBe(true);
    const note = await Note.fromJsonLd(json);
    expect(note.id?.href).toBe(`${SITE}/post/${postId}`);
    expect(note.url?.href).toBe(`${SITE}/post/${postId}`);
    expect(note.attributionId?.href).toBe(actorUri(ann));
    expect(note.content).toBe(
      '<p>Look <span class="h-card"><a href="https://posts.test/profile/bob" class="u-url mention">@<span>bob</span></a></span> &amp; @nobody</p>' +
        '<p>at &lt;this&gt;</p>' +
        '<p><a href="https://posts.test/tagged/sun" class="mention hashtag" rel="tag">#<span>sun</span></a> ' +
        '<a href="https://posts.test/tagged/%C3%A9t%C3%A9" class="mention hashtag" rel="tag">#<span>été</span></a></p>',
    );
    const attachments = [];
    for await (const a of note.getAttachments()) attachments.push(a);
    expect(attachments).toHaveLength(1);
    const image = attachments[0] as Image;
    expect(image).toBeInstanceOf(Image);
    const media = await t.db.kysely
      .selectFrom('media')
      .select(['variants', 'thumbhash'])
      .where('owner_id', '=', ann.id)
      .execute();
    // Mastodon's `blurhash` (from the image's thumbhash), its term declared in the context.
    const blurhash = blurhashOfThumbhash(media[0].thumbhash);
    expect(blurhash).toMatch(/^L.{27}$/);
    expect((json.attachment as { blurhash?: string }[])[0].blurhash).toBe(blurhash);
    expect(JSON.stringify(json['@context'])).toContain('"blurhash":"toot:blurhash"');
    // Mastodon's `focalPoint` from the post's crop (x, y from -1 to 1, y up), declared as Mastodon does.
    expect((json.attachment as { focalPoint?: number[] }[])[0].focalPoint).toEqual([-0.5, -0.5]);
    expect(JSON.stringify(json['@context'])).toContain('"focalPoint":{"@container":"@list","@id":"toot:focalPoint"}');
    const largest = JSON.parse(media[0].variants).sort(
      (a: { width: number }, b: { width: number }) => b.width - a.width,
    )[0];
    expect(image.url?.href).toMatch(new RegExp(`^${SITE}/media/.*${largest.key.split('/').pop()}$`));
    expect(image.mediaType).toBe(`image/${largest.format === 'jpg' ? 'jpeg' : largest.format}`);
    expect([image.width, image.height]).toEqual([largest.width, largest.height]);
    expect(image.name?.toString()).toBe('A yellow sun');
    const tags = [];
    for await (const tag of note.getTags()) tags.push(tag);
    expect(tags.filter((x) => x instanceof Hashtag).map((h) => [h.name?.toString(), h.href?.href])).toEqual([
      ['#sun', `${SITE}/tagged/sun`],
      ['#été', `${SITE}/tagged/%C3%A9t%C3%A9`],
    ]);
    expect(tags.filter((x) => x instanceof Mention).map((m) => [m.name?.toString(), m.href?.href])).toEqual([
      ['@bob@posts.test', actorUri(bob)],
    ]);
    expect(note.sensitive).toBe(true);
    expect(note.summary?.toString()).toBe('Bright light');
    expect(note.toIds.map((u) => u.href)).toEqual(['https://www.w3.org/ns/activitystreams#Public']);
    expect(note.ccIds.map((u) => u.href)).toEqual([`${actorUri(ann)}/followers`, actorUri(bob)]);
    expect(note.published).toBeTruthy();
    expect(note.updated).toBeTruthy();
  });

  it('a photo shown whole ("fit") has no focal point', async () => {
    const whole = await createPost(t.app, ann, { message: 'The whole view' });
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/posts/${whole._id}/manage`,
      headers: ann.headers,
      payload: { post: { crop: { x: 0.5, y: 0.5, fit: true } } },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const json = await getJson(`/post/${whole._id}`);
    expect((json.attachment as Record<string, unknown>[])[0]).not.toHaveProperty('focalPoint');
  });

  it('renders a fetched Note once per version of the post, and anew after an edit', async () => {
    const post = await createPost(t.app, ann, { message: 'Fetched often' });
    const notes = t.app.ctx.caches.caches.get('post_notes')!;
    // The row is shared from its second read (`sharedRows.ts`); the third is the held Note's.
    for (let read = 0; read < 2; read++) await getJson(`/post/${post._id}`);
    const hits = notes.counts.hits;
    expect((await getJson(`/post/${post._id}`)).content).toMatch(/^<p>Fetched often<\/p>/);
    expect(notes.counts.hits).toBe(hits + 1);
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/posts/${post._id}/manage`,
      headers: ann.headers,
      payload: { post: { message: 'Edited since' } },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await getJson(`/post/${post._id}`)).content).toMatch(/^<p>Edited since<\/p>/);
  });

  it('is the page for browsers, and not served once deleted', async () => {
    pages.length = 0;
    const page = await get(`/post/${postId}`, { ...BROWSER, ...ann.headers });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers.vary).toMatch(/Accept/);
    expect(pages).toEqual([`/post/${postId}`]);
    const other = await createPost(t.app, ann, { message: 'short-lived' });
    expect((await get(`/post/${other._id}`)).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: `/api/posts/${other._id}/manage`, headers: ann.headers });
    expect((await get(`/post/${other._id}`)).headers['content-type'] ?? '').not.toMatch(/activity/);
  });

  it('a comment is a Note in reply to the post, addressed to its author too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${postId}/comments`,
      headers: bob.headers,
      payload: { message: 'Nice one @Ann' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const commentId = res.json().commentId;
    const note = await Note.fromJsonLd(await getJson(`/comments/${commentId}`));
    expect(note.id?.href).toBe(`${SITE}/comments/${commentId}`);
    expect(note.replyTargetId?.href).toBe(`${SITE}/post/${postId}`);
    expect(note.attributionId?.href).toBe(actorUri(bob));
    expect(note.content).toContain('class="u-url mention">@<span>Ann</span></a>');
    expect(note.ccIds.map((u) => u.href)).toEqual([`${actorUri(bob)}/followers`, actorUri(ann)]);
    expect(note.url?.href).toBe(`${SITE}/post/${postId}`);
    expect((await get(`/comments/${newId()}`, AP)).headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('collections', () => {
  it("the outbox is a paged OrderedCollection of Create, newest first, with the person's post count", async () => {
    const carl = await signIn(t.app, { username: 'carl' });
    const now = Date.now();
    const rows = Array.from({ length: 23 }, (_, i) => ({
      id: newId(),
      creator_id: carl.id,
      message: `post ${i}`,
      image: `/media/elsewhere/${i}.png`,
      tags: '[]',
      created_at: new Date(now + i).toISOString(),
      updated_at: new Date(now + i).toISOString(),
    }));
    await t.db.kysely.insertInto('posts').values(rows).execute();
    await t.db.kysely.updateTable('users').set({ posts_count: 23 }).where('id', '=', carl.id).execute();
    const outbox = await OrderedCollection.fromJsonLd(await getJson(`/users/${carl.id}/outbox`));
    expect(outbox.totalItems).toBe(23);
    const seen: string[] = [];
    let pageUrl: string | null = outbox.firstId!.href.replace(SITE, '');
    let pageCount = 0;
    while (pageUrl) {
      const json = await getJson(pageUrl);
      for (const item of json.orderedItems as { attachment: unknown }[]) expect(Array.isArray(item)).toBe(false);
      const page = await OrderedCollectionPage.fromJsonLd(json);
      for await (const item of page.getItems()) {
        expect(item).toBeInstanceOf(Create);
        const note = (await (item as Create).getObject()) as Note;
        seen.push(note.id!.href);
      }
      pageCount += 1;
      pageUrl = page.nextId ? page.nextId.href.replace(SITE, '') : null;
    }
    expect(pageCount).toBe(2);
    expect(seen).toEqual(rows.map((r) => `${SITE}/post/${r.id}`).reverse());
    // An image from elsewhere (no upload row): its own address, the type its name says.
    const first = await getJson(`/post/${rows[0].id}`);
    expect(first.attachment).toEqual([
      expect.objectContaining({ type: 'Image', url: `${SITE}/media/elsewhere/0.png`, mediaType: 'image/png' }),
    ]);
  });

  it('followers and following are counted and paged', async () => {
    const star = await signIn(t.app, { username: 'star' });
    const fans = Array.from({ length: 21 }, (_, i) => userRow(`fan${i}_${newId().slice(-4)}`));
    await t.db.kysely.insertInto('users').values(fans).execute();
    await t.db.kysely
      .insertInto('follows')
      .values(
        fans.map((fan) => ({
          id: newId(),
          follower_id: fan.id,
          followee_id: star.id,
          created_at: new Date().toISOString(),
        })),
      )
      .execute();
    await t.db.kysely.updateTable('users').set({ followers_count: 21 }).where('id', '=', star.id).execute();
    await t.db.kysely.updateTable('users').set({ following_count: 1 }).where('id', '=', fans[0].id).execute();
    const followers = await OrderedCollection.fromJsonLd(await getJson(`/users/${star.id}/followers`));
    expect(followers.totalItems).toBe(21);
    const first = await OrderedCollectionPage.fromJsonLd(await getJson(followers.firstId!.href.replace(SITE, '')));
    const next = await OrderedCollectionPage.fromJsonLd(await getJson(first.nextId!.href.replace(SITE, '')));
    const ids = [...first.itemIds, ...next.itemIds].map((u) => u.href);
    expect(ids).toEqual(fans.map((fan) => actorUri(fan)).reverse());
    expect(next.nextId).toBeNull();
    const following = await OrderedCollection.fromJsonLd(await getJson(`/users/${fans[0].id}/following`));
    expect(following.totalItems).toBe(1);
    const page = await OrderedCollectionPage.fromJsonLd(await getJson(following.firstId!.href.replace(SITE, '')));
    expect(page.itemIds.map((u) => u.href)).toEqual([actorUri(star)]);
  });
});

describe('the inboxes', () => {
  const activity = {
    '@context': 'https://www.w3.org/ns/activitystreams',
    type: 'Follow',
    actor: 'https://else.example/u/x',
  };

  it('refuse an unsigned activity with 401, on the shared inbox and a person’s', async () => {
    for (const url of ['/inbox', `/users/${ann.id}/inbox`]) {
      for (const contentType of [
        'application/activity+json',
        'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': contentType },
          payload: JSON.stringify(activity),
        });
        expect(res.statusCode, `${url} ${contentType}`).toBe(401);
      }
    }
  });

  it('refuse a body over 256 KB with 413 and the usual error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/inbox',
      headers: { 'content-type': 'application/activity+json' },
      payload: JSON.stringify({ ...activity, content: 'x'.repeat(256 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PayloadTooLarge' });
  });

  it('leave ActivityPub bodies refused elsewhere (415)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/posts/create',
      headers: { ...ann.headers, 'content-type': 'application/activity+json' },
      payload: JSON.stringify({ message: 'x' }),
    });
    expect(res.statusCode).toBe(415);
  });
});

describe('federation off', () => {
  it('FEDERATION=true without PUBLIC_URL, or a value other than true or false, refuses to start', () => {
    const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: t.dataDir };
    expect(() => loadConfig({ ...base, FEDERATION: 'true' })).toThrow(/FEDERATION=true needs PUBLIC_URL/);
    expect(() => loadConfig({ ...base, PUBLIC_URL: SITE, FEDERATION: 'yes' })).toThrow(
      /FEDERATION must be true or false/,
    );
    expect(loadConfig({ ...base, PUBLIC_URL: SITE }).federation).toEqual({ origin: SITE, allowPrivateAddress: false });
  });

  it('without PUBLIC_URL, or with FEDERATION=false, none of its routes exist', async () => {
    for (const env of [{}, { PUBLIC_URL: SITE, FEDERATION: 'false' }] as Record<string, string>[]) {
      const off = await createTestApp(env, { pageHandler });
      try {
        expect(off.app.ctx.federation).toBeNull();
        pages.length = 0;
        const finger = await off.app.inject({
          method: 'GET',
          url: '/.well-known/webfinger?resource=acct:a@posts.test',
        });
        expect(finger.headers['content-type']).toMatch(/^text\/html/);
        const profile = await off.app.inject({ method: 'GET', url: '/profile/Ann', headers: AP });
        expect(profile.headers['content-type'] ?? '').not.toMatch(/json/);
        expect(profile.headers.vary ?? '').not.toMatch(/Accept/);
        const inbox = await off.app.inject({
          method: 'POST',
          url: '/inbox',
          headers: { 'content-type': 'application/activity+json' },
          payload: '{}',
        });
        expect(inbox.statusCode).toBe(404);
      } finally {
        await off.close();
      }
    }
  });
});
