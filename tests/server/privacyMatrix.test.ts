/**
 * Issue 70, the privacy matrix: each viewer × each audience × each surface, allowed or refused as
 * the rules say (docs/API.md, "Who sees a post"). The Posts API and the pages' preview through
 * `inject`, the client API through masto.js over a real socket. Every list is read three times:
 * the first read is the database's, the later ones the shared rows' (`cache/sharedRows.ts`), and
 * all must agree. Federation's surfaces are tests/server/federationAudience.test.ts's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { mastodon } from 'masto';
import type { Audience } from '../../lib/audience';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from './helpers';
import { answerStatus, clientFor, listenOn, userToken } from './mastodon/oauthFlow';
import { uploadImage } from './multipart';

// Stands in for Next.js: the pages' own routes (the public preview) answer before it.
async function pageHandler(_req: IncomingMessage, res: ServerResponse) {
  res.end('{}');
}

const VIEWERS = ['stranger', 'requester', 'follower', 'removed', 'blocked', 'mentioned', 'author', 'admin'] as const;
type Viewer = (typeof VIEWERS)[number];
const AUDIENCES: Audience[] = ['public', 'unlisted', 'followers', 'mentioned'];

let t: TestApp;
let url: string;
const people = {} as Record<Viewer, SignedInUser>;
const posts = {} as Record<Audience, string>;
const tag = `matrix${Date.now().toString(36)}`;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (user: SignedInUser | null, method: Method, path: string, payload?: object) =>
  t.app.inject({ method, url: path, headers: user?.headers ?? {}, payload });

beforeAll(async () => {
  t = await createTestApp({}, { pageHandler });
  url = await listenOn(t);
  for (const name of VIEWERS) people[name] = await signIn(t.app);
  const { author, requester, follower, removed, blocked, mentioned, admin } = people;
  await makeAdmin(t, admin);
  expect((await call(author, 'PATCH', '/api/users/updateProfile', { approveFollowers: true })).statusCode).toBe(200);
  for (const fan of [requester, follower, removed, blocked])
    await call(fan, 'PATCH', `/api/users/${author.username}/follow`);
  for (const fan of [follower, removed, blocked])
    expect((await call(author, 'POST', `/api/follow-requests/${fan.id}/approve`)).statusCode).toBe(204);
  for (const audience of AUDIENCES) {
    const image = (await uploadImage(t.app, author, 'post')).secure_url;
    const res = await call(author, 'POST', '/api/posts/create', {
      message: `For ${audience} only, @${mentioned.username}`,
      tags: [tag],
      image,
      audience,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().audience).toBe(audience);
    posts[audience] = res.json()._id;
  }
  // Every read warms what it can before the follower is removed and the blocked one blocked.
  for (const name of VIEWERS) await lists(people[name]);
  expect((await call(author, 'DELETE', `/api/users/${removed.username}/follower`)).statusCode).toBe(204);
  expect((await call(author, 'PATCH', `/api/users/${blocked.username}/block`)).statusCode).toBe(200);
});
afterAll(async () => t?.close());

/** Who may see each audience's post by its address (a post, its comments and likers, a profile's posts). */
const MAY_SEE: Record<Audience, readonly Viewer[]> = {
  public: ['stranger', 'requester', 'follower', 'removed', 'mentioned', 'author', 'admin'],
  unlisted: ['stranger', 'requester', 'follower', 'removed', 'mentioned', 'author', 'admin'],
  followers: ['follower', 'author'],
  mentioned: ['mentioned', 'author'],
};
/** Everyone and a tag's page: public posts only, for all who may see them. */
const IN_PUBLIC_LISTS: Record<Audience, readonly Viewer[]> = {
  public: MAY_SEE.public,
  unlisted: [],
  followers: [],
  mentioned: [],
};
/** The home feed: the author's own, and an approved follower's (not a post for others named). */
const IN_HOME: Record<Audience, readonly Viewer[]> = {
  public: ['follower', 'author'],
  unlisted: ['follower', 'author'],
  followers: ['follower', 'author'],
  mentioned: ['author'],
};

/** A list's ids; a refused list (a 404's error) holds none. */
const ids = (res: { json(): unknown }) => {
  const body = res.json();
  return Array.isArray(body) ? (body as { _id: string }[]).map((p) => p._id) : [];
};

/** The lists a viewer reads, each as the ids of the matrix's posts in it. */
async function lists(viewer: SignedInUser) {
  const mine = (found: string[]) => AUDIENCES.filter((a) => found.includes(posts[a]));
  return {
    everyone: mine(ids(await call(viewer, 'GET', '/api/posts?feed=all'))),
    tag: mine(ids(await call(viewer, 'GET', `/api/posts/tagged?tags=${tag}`))),
    profile: mine(ids(await call(viewer, 'GET', `/api/users/${people.author.username}/posts`))),
    home: mine(ids(await call(viewer, 'GET', '/api/posts?feed=following'))),
  };
}

const allowed = (rule: Record<Audience, readonly Viewer[]>, viewer: Viewer) =>
  AUDIENCES.filter((a) => rule[a].includes(viewer));

describe('the privacy matrix: the Posts API', () => {
  it.each(VIEWERS)('%s: the post, its comments and likers, by the rules', async (name) => {
    const viewer = people[name];
    for (const audience of AUDIENCES) {
      const expected = MAY_SEE[audience].includes(name) ? 200 : 404;
      const id = posts[audience];
      for (const path of [`/api/posts/${id}`, `/api/posts/${id}/comments`, `/api/posts/${id}/likers`])
        expect((await call(viewer, 'GET', path)).statusCode, `${name} ${audience} ${path}`).toBe(expected);
    }
  });

  it.each(VIEWERS)('%s: Everyone, the tag, the profile and the home feed, read three times alike', async (name) => {
    for (let read = 0; read < 3; read += 1) {
      const seen = await lists(people[name]);
      expect(seen.everyone, `${name} everyone, read ${read}`).toEqual(allowed(IN_PUBLIC_LISTS, name));
      expect(seen.tag, `${name} tag, read ${read}`).toEqual(allowed(IN_PUBLIC_LISTS, name));
      // The blocked one sees the profile refused as a whole; the others the posts they may see.
      if (name !== 'blocked') expect(seen.profile, `${name} profile, read ${read}`).toEqual(allowed(MAY_SEE, name));
      expect(seen.home, `${name} home, read ${read}`).toEqual(allowed(IN_HOME, name));
    }
  });

  it('a like or a comment on a post one may not see is a 404, and writes nothing', async () => {
    const { stranger, follower } = people;
    for (const audience of ['followers', 'mentioned'] as const) {
      const id = posts[audience];
      expect((await call(stranger, 'PATCH', `/api/posts/${id}/like`)).statusCode).toBe(404);
      expect((await call(stranger, 'POST', `/api/posts/${id}/comments`, { message: 'hello' })).statusCode).toBe(404);
    }
    expect((await call(follower, 'PATCH', `/api/posts/${posts.followers}/like`)).statusCode).toBe(200);
    const post = (await call(people.author, 'GET', `/api/posts/${posts.followers}`)).json();
    expect(post.likesCount).toBe(1);
    expect((await call(follower, 'PATCH', `/api/posts/${posts.followers}/like`)).statusCode).toBe(200);
  });

  it('the mention notifies only those the audience admits; a visitor previews public and unlisted posts only', async () => {
    const notified = (await call(people.mentioned, 'GET', '/api/notifications')).json() as {
      type: string;
      post?: { _id: string } | null;
    }[];
    const about = AUDIENCES.filter((a) => notified.some((n) => n.type === 'mention' && n.post?._id === posts[a]));
    expect(about).toEqual(['public', 'unlisted', 'mentioned']);
    for (const audience of AUDIENCES) {
      const html = (await call(null, 'GET', `/post/${posts[audience]}`)).body;
      expect(html.includes(`For ${audience} only`), audience).toBe(audience === 'public' || audience === 'unlisted');
    }
  });
});

describe('the privacy matrix: the client API (masto.js)', () => {
  const clients = {} as Record<Viewer, mastodon.rest.Client>;
  beforeAll(async () => {
    for (const name of VIEWERS) clients[name] = clientFor(url, await userToken(url, people[name], 'read write follow'));
  });

  it.each(VIEWERS)('%s: statuses, their context and timelines, by the rules', async (name) => {
    const api = clients[name];
    for (const audience of AUDIENCES) {
      const expected = MAY_SEE[audience].includes(name) ? 200 : 404;
      expect(await answerStatus(api.v1.statuses.$select(posts[audience]).fetch()), `${name} ${audience}`).toBe(
        expected,
      );
      expect(await answerStatus(api.v1.statuses.$select(posts[audience]).context.fetch())).toBe(expected);
    }
    const mine = (found: { id: string }[]) => AUDIENCES.filter((a) => found.some((s) => s.id === posts[a]));
    for (let read = 0; read < 2; read += 1) {
      expect(mine(await api.v1.timelines.public.list({ limit: 40 })), `${name} public`).toEqual(
        allowed(IN_PUBLIC_LISTS, name),
      );
      expect(mine(await api.v1.timelines.tag.$select(tag).list()), `${name} tag`).toEqual(
        allowed(IN_PUBLIC_LISTS, name),
      );
      expect(mine((await api.v2.search.list({ q: tag, type: 'statuses' })).statuses), `${name} search`).toEqual(
        allowed(IN_PUBLIC_LISTS, name),
      );
      expect(mine(await api.v1.timelines.home.list({ limit: 40 })), `${name} home`).toEqual(allowed(IN_HOME, name));
      if (name !== 'blocked')
        expect(mine(await api.v1.accounts.$select(people.author.id).statuses.list()), `${name} account`).toEqual(
          allowed(MAY_SEE, name),
        );
    }
  });

  it('each status says its visibility as Mastodon names it; a new status takes one, an unknown one is a 422', async () => {
    const api = clients.author;
    const names = { public: 'public', unlisted: 'unlisted', followers: 'private', mentioned: 'direct' } as const;
    for (const audience of AUDIENCES)
      expect((await api.v1.statuses.$select(posts[audience]).fetch()).visibility).toBe(names[audience]);
    // A comment is seen by those who may see its post: it says the post's visibility.
    const reply = await api.v1.statuses.create({ status: 'A reply', inReplyToId: posts.followers });
    expect(reply.visibility).toBe('private');
    const { descendants } = await api.v1.statuses.$select(posts.followers).context.fetch();
    expect(descendants.find((s) => s.id === reply.id)?.visibility).toBe('private');
    const media = await api.v2.media.create({
      file: new Blob([new Uint8Array(await pngBytes())], { type: 'image/png' }),
    });
    const made = await api.v1.statuses.create({
      status: `#${tag} for friends`,
      mediaIds: [media.id],
      visibility: 'private',
    });
    expect(made.visibility).toBe('private');
    expect(await answerStatus(clients.stranger.v1.statuses.$select(made.id).fetch())).toBe(404);
    const other = await api.v2.media.create({
      file: new Blob([new Uint8Array(await pngBytes())], { type: 'image/png' }),
    });
    expect(
      await answerStatus(
        api.v1.statuses.create({ status: 'x', mediaIds: [other.id], visibility: 'everyone' as 'public' }),
      ),
    ).toBe(422);
  });
});

describe('a change of audience', () => {
  it("takes the post out of a stranger's view at once, kept lists too, and back", async () => {
    const { author, stranger } = people;
    const post = await createPost(t.app, author, { tags: [tag] });
    const seen = async () => ({
      post: (await call(stranger, 'GET', `/api/posts/${post._id}`)).statusCode,
      everyone: ids(await call(stranger, 'GET', '/api/posts?feed=all')).includes(post._id),
      tag: ids(await call(stranger, 'GET', `/api/posts/tagged?tags=${tag}`)).includes(post._id),
    });
    for (let read = 0; read < 3; read += 1) expect(await seen()).toEqual({ post: 200, everyone: true, tag: true });
    const edit = (audience: string) => call(author, 'PATCH', `/api/posts/${post._id}/manage`, { post: { audience } });
    const changed = await edit('followers');
    expect(changed.statusCode).toBe(200);
    expect(changed.json().audience).toBe('followers');
    expect(await seen()).toEqual({ post: 404, everyone: false, tag: false });
    expect((await edit('nobody')).json()).toMatchObject({ code: 'InvalidAudience' });
    await edit('public');
    expect(await seen()).toEqual({ post: 200, everyone: true, tag: true });
  });

  it('a default audience in settings starts each new post; the client API reads and sets it as source.privacy', async () => {
    const { author } = people;
    const set = await call(author, 'PATCH', '/api/users/updateProfile', { defaultAudience: 'unlisted' });
    expect(set.json().user.defaultAudience).toBe('unlisted');
    expect((await createPost(t.app, author)).audience).toBe('unlisted');
    expect((await call(author, 'PATCH', '/api/users/updateProfile', { defaultAudience: 'x' })).statusCode).toBe(400);
    const api = clientFor(url, await userToken(url, author, 'read write'));
    expect((await api.v1.accounts.verifyCredentials()).source.privacy).toBe('unlisted');
    expect((await api.v1.preferences.fetch())['posting:default:visibility']).toBe('unlisted');
    const me = await api.v1.accounts.updateCredentials({ source: { privacy: 'private' } });
    expect(me.source.privacy).toBe('private');
    expect((await createPost(t.app, author)).audience).toBe('followers');
    await call(author, 'PATCH', '/api/users/updateProfile', { defaultAudience: 'public' });
  });
});

async function pngBytes(): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp({ create: { width: 8, height: 8, channels: 3, background: '#369' } })
    .png()
    .toBuffer();
}
