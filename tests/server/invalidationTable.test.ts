/**
 * The invalidation table (server/invalidation/table.ts), event by event: for each, a case warms
 * every read the change affects (three reads: a page is kept from its second), makes the change
 * through the HTTP API, reads again and expects the change. Caches are kept for a minute and the
 * follow lists are on, so only the events can make a read see a change.
 *
 * Run on one instance, on two instances through Redis (written through one, read through the
 * other), and once per line of the table with that line taken out: at least one case of its event
 * must then fail, so no line is there for nothing and none can be dropped unseen.
 */
import { randomUUID } from 'node:crypto';
import type { Comment, Post, Profile } from '../../lib/types';
import { INVALIDATION, type InvalidationTable } from '../../server/invalidation/table';
import { EVENT_TYPES, type DomainEventType } from '../../server/events/events';
import { createPost, remoteUserRow } from './factories';
import {
  type SignedInUser,
  type TestApp,
  busSettler,
  cookiesOf,
  cookieHeader,
  createTestApp,
  makeAdmin,
  signIn,
} from './helpers';
import { uploadImage } from './multipart';

/** Every cache keeps what it read for a minute; the follow lists are on (the default is 1 s). */
const LONG_CACHES = { SESSION_CACHE_MS: '60000', POST_CACHE_MS: '60000', HOME_FEED_SYNC_MS: '60000' };

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Two instances, or one playing both parts. */
interface World {
  /** Where the changes are made (and the setup). */
  write: TestApp;
  /** Where the reads are made. */
  read: TestApp;
  /** Resolves once `read` has heard every event `write` published so far. */
  settle(): Promise<void>;
}

interface Step {
  /** Each read the change affects, by name: warmed three times, read once more after the change. */
  reads: Record<string, () => Promise<unknown>>;
  change(): Promise<void>;
  /** Throws unless `after` shows the change. */
  expect(after: Record<string, unknown>): void;
}

interface Case {
  /** The event whose lines this case covers. */
  event: DomainEventType;
  title: string;
  prepare(w: World): Promise<Step>;
}

/** A write that must succeed. */
async function send(w: World, user: SignedInUser, method: Method, url: string, payload?: object) {
  const res = await w.write.app.inject({ method, url, headers: user.headers, payload });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res;
}

async function get(w: World, user: SignedInUser, url: string) {
  const res = await w.read.app.inject({ method: 'GET', url, headers: user.headers });
  return { status: res.statusCode, body: res.statusCode === 200 ? res.json() : null };
}

/** The ids of a list (posts or comments) as the reader sees it. */
async function ids(w: World, user: SignedInUser, url: string): Promise<string[]> {
  const { status, body } = await get(w, user, url);
  if (status !== 200) throw new Error(`GET ${url}: ${status}`);
  return (body as { _id?: string; commentId?: string }[]).map((item) => item._id ?? item.commentId ?? '');
}

const status = async (w: World, user: SignedInUser) => (await get(w, user, '/api/auth/getLoggedUser')).status;
const follow = (w: World, fan: SignedInUser, star: SignedInUser) =>
  send(w, fan, 'PATCH', `/api/users/${star.username}/follow`);
const users = (w: World, count: number) => Promise.all(Array.from({ length: count }, () => signIn(w.write.app)));
async function adminOf(w: World): Promise<SignedInUser> {
  const admin = await signIn(w.write.app);
  await makeAdmin(w.write, admin);
  return admin;
}

/** A second sign-in of the same user: another device, another session. */
async function otherDevice(w: World, user: SignedInUser): Promise<SignedInUser> {
  const login = await send(w, user, 'POST', '/api/auth/login', { email: user.email, password: user.password });
  const cookies = cookiesOf(login);
  return { ...user, cookies, headers: { cookie: cookieHeader(cookies) } };
}

/** The index's own read (`homeFeed.ids`): what the home feed walks, deleted posts included. */
const indexIds = async (w: World, reader: SignedInUser) =>
  (await w.read.app.ctx.homeFeed.ids(reader.id, null, 50)) ?? [];

const post = (w: World, user: SignedInUser, tags = ['sun']) => createPost(w.write.app, user, { tags });
/** The post's comment count as `reader` reads it. */
const countSeen = async (w: World, reader: SignedInUser, p: Post) =>
  ((await get(w, reader, `/api/posts/${p._id}`)).body as Post).commentsCount;
const tag = () => `t${randomUUID().slice(0, 8)}`;

/**
 * Ann blocks bob; carl's post has dave's comment. A count above 0 makes ann's count of the post
 * worked out (and bob's comments read) at every read, so the cases below test what is kept for it.
 */
async function blockedCommenter(w: World) {
  const [ann, bob, carl, dave] = await users(w, 4);
  await send(w, ann, 'PATCH', `/api/users/${bob.username}/block`);
  const p = await post(w, carl);
  await send(w, dave, 'POST', `/api/posts/${p._id}/comments`, { message: 'first' });
  return { bob, p, reads: { count: () => countSeen(w, ann, p) } };
}
const has = (list: unknown, id: string) => (list as string[]).includes(id);

/**
 * Ann's post, liked by two people and commented on by a third: it trends. The reading instance
 * works its trends out (as its background refresh does), and `trending` reads its whole list.
 */
async function trendingPost(w: World) {
  const [ann, x, y, z] = await users(w, 4);
  const p = await post(w, ann, [tag()]);
  await send(w, x, 'PATCH', `/api/posts/${p._id}/like`);
  await send(w, y, 'PATCH', `/api/posts/${p._id}/like`);
  await send(w, z, 'POST', `/api/posts/${p._id}/comments`, { message: 'Lovely' });
  await w.settle();
  await w.read.app.ctx.explore.trends.refresh();
  const trending = async () =>
    (await w.read.app.ctx.explore.explore.trendingPosts(null, 1_000)).map((shown) => shown._id);
  return { p, ann, reads: { trending } };
}

function must(condition: boolean, what: string): void {
  if (!condition) throw new Error(`not seen: ${what}`);
}

/** A client API token of `user` with the `read` scope, through the consent form (server/oauth/). */
async function bearer(w: World, user: SignedInUser): Promise<Record<string, string>> {
  const redirect = 'http://127.0.0.1:9/callback';
  const app = w.write.app;
  const client = (
    await app.inject({
      method: 'POST',
      url: '/api/v1/apps',
      payload: { client_name: 'Cases', redirect_uris: redirect, scopes: 'read' },
    })
  ).json() as { client_id: string; client_secret: string };
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirect,
    scope: 'read',
  });
  const page = await app.inject({ method: 'GET', url: `/oauth/authorize?${query}`, headers: user.headers });
  const form = new URLSearchParams({ decision: 'approve' });
  for (const [, name, value] of page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(name, value.replace(/&amp;/g, '&').replace(/&quot;/g, '"'));
  const approved = await app.inject({
    method: 'POST',
    url: '/oauth/authorize',
    headers: { ...user.headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });
  const code = new URL(String(approved.headers.location)).searchParams.get('code');
  const token = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: { grant_type: 'authorization_code', code, redirect_uri: redirect, ...client },
  });
  if (token.statusCode !== 200) throw new Error(`token: ${token.statusCode} ${token.body}`);
  return { authorization: `Bearer ${(token.json() as { access_token: string }).access_token}` };
}

interface AccountSeen {
  id: string;
  username: string;
  note: string;
  followers_count: number;
  following_count: number;
  statuses_count: number;
}

/** The authors of the client API's local timeline, by id, as the holder of `auth` reads them (`users/authorCache.ts`). */
async function accountsSeen(w: World, auth: Record<string, string>): Promise<Record<string, AccountSeen>> {
  const res = await w.read.app.inject({
    method: 'GET',
    url: '/api/v1/timelines/public?local=true&limit=40',
    headers: auth,
  });
  if (res.statusCode !== 200) throw new Error(`timeline: ${res.statusCode}`);
  return Object.fromEntries((res.json() as { account: AccountSeen }[]).map(({ account }) => [account.id, account]));
}

const counts = (a: AccountSeen | undefined) => a && `${a.followers_count}/${a.following_count}/${a.statuses_count}`;

/** A person on another server, kept here as federation keeps them (a users row with a `domain`). */
async function remotePerson(
  w: World,
  domain: string,
): Promise<{ id: string; username: string; role: 'member'; sessionId: string }> {
  const row = remoteUserRow(domain);
  await w.write.db.kysely.insertInto('users').values(row).execute();
  return { id: row.id, username: row.username, role: 'member', sessionId: '' };
}

/** A post of theirs as an incoming `Create(Note)` keeps it (`posts.importRemote`). */
async function remotePost(w: World, author: Awaited<ReturnType<typeof remotePerson>>, tags: string[]) {
  const uri = `https://${author.username.split('@')[1]}/notes/${randomUUID()}`;
  const { id } = await w.write.app.ctx.posts.importRemote(author, {
    uri,
    url: uri,
    message: 'From elsewhere',
    tags,
    image: '/remote-image-missing.svg',
    mediaId: null,
    alt: '',
    sensitive: false,
    spoiler: '',
    mentionedIds: [],
    published: new Date().toISOString(),
  });
  return id;
}

/**
 * A profile as `viewer` reads it: its status when not shown, else followed, blocked and muted by
 * the viewer (`F`, `B`, `M` or `-`) and its followers/following/posts counts.
 */
async function profileSeen(w: World, viewer: SignedInUser, username: string): Promise<string> {
  const { status, body } = await get(w, viewer, `/api/users/${encodeURIComponent(username)}`);
  if (status !== 200) return String(status);
  const p = (body as { user: Profile }).user;
  const flags = `${p.followedByMe ? 'F' : '-'}${p.blockedByMe ? 'B' : '-'}${p.mutedByMe ? 'M' : '-'}`;
  return `${flags} ${p.followersCount}/${p.followingCount}/${p.postsCount}`;
}

const domainBlock = (w: World, admin: SignedInUser, domain: string, severity: 'silence' | 'suspend') =>
  send(w, admin, 'POST', '/api/admin/domains', { domain, severity });

/** Issue 70: a person who approves followers. */
async function lockedPerson(w: World): Promise<SignedInUser> {
  const [star] = await users(w, 1);
  await send(w, star, 'PATCH', '/api/users/updateProfile', { approveFollowers: true });
  return star;
}
/** How many wait for `user`'s answer (the badge), as read. */
const requestCount = async (w: World, user: SignedInUser) =>
  (await get(w, user, '/api/follow-requests/count')).body.count as number;

const CASES: Case[] = [
  {
    event: 'PostCreated',
    title: "a new post is first in everyone's, its tag's, its creator's and the followers' home lists",
    async prepare(w) {
      const [fan, star, muter] = await users(w, 3);
      const t = tag();
      await follow(w, fan, star);
      // A follower who mutes the creator: their kept home page must not take the post.
      await follow(w, muter, star);
      await send(w, muter, 'PATCH', `/api/users/${star.username}/mute`);
      await follow(w, muter, fan);
      await post(w, fan, [tag()]);
      await post(w, star, [t]);
      let created: Post;
      return {
        reads: {
          home: () => ids(w, fan, '/api/posts?feed=following'),
          ownHome: () => ids(w, star, '/api/posts?feed=following'),
          mutersHome: () => ids(w, muter, '/api/posts?feed=following'),
          // What a home page not kept here is walked from (the next pages, another reader's first).
          index: () => indexIds(w, fan),
          everyone: () => ids(w, fan, '/api/posts?feed=all'),
          tagged: () => ids(w, fan, `/api/posts/tagged?tags=${t}`),
          profile: () => ids(w, fan, `/api/users/${star.username}/posts`),
        },
        change: async () => void (created = await post(w, star, [t])),
        expect: (after) => {
          for (const list of ['home', 'ownHome', 'index', 'everyone', 'tagged', 'profile'])
            must((after[list] as string[])[0] === created._id, list);
          must(!has(after.mutersHome, created._id) && (after.mutersHome as string[]).length === 1, "the muter's home");
        },
      };
    },
  },
  {
    event: 'PostCreated',
    title: "a new post is first in its tag followers' home feeds and the tag's kept newest (issue 73)",
    async prepare(w) {
      const [fan, star, other] = await users(w, 3);
      const t = tag();
      await send(w, fan, 'PUT', `/api/tags/${t}/follow`);
      await post(w, other, [t]);
      let created: Post;
      return {
        reads: {
          home: () => ids(w, fan, '/api/posts?feed=following'),
          // What a home page not kept here merges (the next pages, another follower's first).
          head: async () => [...(await w.read.app.ctx.followedTags.head(t))],
        },
        change: async () => void (created = await post(w, star, [t])),
        expect: (r) => {
          must((r.home as string[])[0] === created._id, 'first in the home feed');
          must((r.head as string[])[0] === created._id, "first in the tag's newest");
        },
      };
    },
  },
  {
    event: 'PostCreated',
    title: "a post from elsewhere is first in its tag's list, and stays out of everyone's (this instance's own)",
    async prepare(w) {
      const [fan] = await users(w, 1);
      const bob = await remotePerson(w, `${tag()}.example`);
      const t = tag();
      await remotePost(w, bob, [t]);
      await post(w, fan, [tag()]);
      let theirs: string;
      return {
        reads: {
          everyone: () => ids(w, fan, '/api/posts?feed=all'),
          tagged: () => ids(w, fan, `/api/posts/tagged?tags=${t}`),
        },
        change: async () => void (theirs = await remotePost(w, bob, [t])),
        expect: (r) => {
          must((r.tagged as string[])[0] === theirs, 'first in the tag list');
          must(!has(r.everyone, theirs), "out of everyone's list");
        },
      };
    },
  },
  {
    event: 'PostEdited',
    title: 'an edit shows its text, and new tags move the post between tag lists',
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const [before, after] = [tag(), tag()];
      const p = await post(w, ann, [before]);
      await post(w, ann, [after]);
      return {
        reads: {
          // The author's own view too: the edit's answer would otherwise refresh the row by itself.
          authors: async () => (await get(w, ann, `/api/posts/${p._id}`)).body?.message,
          post: async () => (await get(w, bob, `/api/posts/${p._id}`)).body?.message,
          was: () => ids(w, bob, `/api/posts/tagged?tags=${before}`),
          now: () => ids(w, bob, `/api/posts/tagged?tags=${after}`),
        },
        change: async () =>
          void (await send(w, ann, 'PATCH', `/api/posts/${p._id}/manage`, {
            post: { message: 'edited', tags: [after] },
          })),
        expect: (r) => {
          must(r.post === 'edited' && r.authors === 'edited', 'the new text');
          must(!has(r.was, p._id), 'gone from the old tag');
          must(has(r.now, p._id), 'in the new tag');
        },
      };
    },
  },
  {
    event: 'PostEdited',
    title: "a post given a followed tag joins the tag follower's home feed (issue 73)",
    async prepare(w) {
      const [fan, star] = await users(w, 2);
      const t = tag();
      await send(w, fan, 'PUT', `/api/tags/${t}/follow`);
      await post(w, star, [t]);
      const p = await post(w, star, [tag()]);
      return {
        reads: {
          home: () => ids(w, fan, '/api/posts?feed=following'),
          head: async () => [...(await w.read.app.ctx.followedTags.head(t))],
        },
        change: async () => void (await send(w, star, 'PATCH', `/api/posts/${p._id}/manage`, { post: { tags: [t] } })),
        expect: (r) => {
          must(has(r.home, p._id), 'in the home feed');
          must(has(r.head, p._id), "in the tag's newest");
        },
      };
    },
  },
  {
    event: 'PostEdited',
    title: 'a post made followers-only leaves a stranger’s lists and page at once, and stays the follower’s (issue 70)',
    async prepare(w) {
      const [ann, fan, stranger] = await users(w, 3);
      await follow(w, fan, ann);
      const t = tag();
      const p = await post(w, ann, [t]);
      return {
        reads: {
          page: async () => (await get(w, stranger, `/api/posts/${p._id}`)).status,
          everyone: () => ids(w, stranger, '/api/posts?feed=all'),
          tagged: () => ids(w, stranger, `/api/posts/tagged?tags=${t}`),
          fan: async () => (await get(w, fan, `/api/posts/${p._id}`)).body?.audience,
        },
        change: async () =>
          void (await send(w, ann, 'PATCH', `/api/posts/${p._id}/manage`, { post: { audience: 'followers' } })),
        expect: (r) => {
          must(r.page === 404, `its page refused (${r.page})`);
          must(!has(r.everyone, p._id) && !has(r.tagged, p._id), 'out of the public lists');
          must(r.fan === 'followers', 'the follower reads it as followers-only');
        },
      };
    },
  },
  {
    event: 'PostEdited',
    title:
      "an album's new order and alt texts (issue 71) show in the post, everyone's and a tag's lists and the client API's status",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const t = tag();
      const photos: string[] = [];
      for (let i = 0; i < 3; i++) photos.push((await uploadImage(w.write.app, ann, 'post')).secure_url);
      const made = await send(w, ann, 'POST', '/api/posts/create', {
        message: 'An album',
        tags: [t],
        images: photos.map((image, i) => ({ image, alt: `photo ${i}` })),
      });
      const id = (made.json() as Post)._id;
      const auth = await bearer(w, bob);
      const alts = (post: Post | null | undefined) => post?.images.map((photo) => photo.alt).join(',');
      const inList = async (url: string) => alts(((await get(w, bob, url)).body as Post[]).find((p) => p._id === id));
      return {
        reads: {
          post: async () => alts((await get(w, bob, `/api/posts/${id}`)).body as Post | null),
          everyone: () => inList('/api/posts?feed=all'),
          tagged: () => inList(`/api/posts/tagged?tags=${t}`),
          status: async () => {
            const res = await w.read.app.inject({ method: 'GET', url: `/api/v1/statuses/${id}`, headers: auth });
            return (res.json() as { media_attachments: { description: string | null }[] }).media_attachments
              .map((media) => media.description ?? '')
              .join(',');
          },
        },
        change: async () =>
          void (await send(w, ann, 'PATCH', `/api/posts/${id}/manage`, {
            post: { images: [{ image: photos[2] }, { image: photos[0], alt: 'first' }] },
          })),
        expect: (r) => {
          const now = 'photo 2,first';
          must(r.post === now, `the post (${String(r.post)})`);
          must(r.everyone === now && r.tagged === now, `the lists (${String(r.everyone)}; ${String(r.tagged)})`);
          must(r.status === now, `the client API's status (${String(r.status)})`);
        },
      };
    },
  },
  {
    event: 'PostDeleted',
    title: 'a deleted post leaves every list, its page and the home feed index',
    async prepare(w) {
      const [fan, star] = await users(w, 2);
      await follow(w, fan, star);
      const p = await post(w, star);
      return {
        reads: {
          everyone: () => ids(w, fan, '/api/posts?feed=all'),
          home: () => ids(w, fan, '/api/posts?feed=following'),
          page: async () => (await get(w, fan, `/api/posts/${p._id}`)).status,
          index: () => indexIds(w, fan),
        },
        change: async () => void (await send(w, star, 'DELETE', `/api/posts/${p._id}/manage`)),
        expect: (r) => {
          must(!has(r.everyone, p._id) && !has(r.home, p._id), 'gone from the lists');
          must(r.page === 404, 'its page is 404');
          must(!has(r.index, p._id), 'gone from the index');
        },
      };
    },
  },
  {
    event: 'PostReacted',
    title: "a like shows in the post's counts and as the liker's own reaction",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const p = await post(w, ann);
      const seen = async (who: SignedInUser) => {
        const body = (await get(w, who, `/api/posts/${p._id}`)).body as Post;
        return `${body.likesCount}:${body.myReaction}`;
      };
      return {
        reads: { author: () => seen(ann), liker: () => seen(bob) },
        change: async () => void (await send(w, bob, 'PATCH', `/api/posts/${p._id}/like`)),
        expect: (r) => {
          must(r.author === '1:null', "the author's count");
          must(r.liker === '1:like', "the liker's reaction");
        },
      };
    },
  },
  {
    event: 'PostSaved',
    title: 'a save shows as savedByMe to the saver alone, in the post and their feed',
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const p = await post(w, ann);
      const mark = async (who: SignedInUser, url: string) => {
        const body = (await get(w, who, url)).body as Post | Post[];
        const found = Array.isArray(body) ? body.find((x) => x._id === p._id) : body;
        return found?.savedByMe === true;
      };
      return {
        reads: {
          post: () => mark(bob, `/api/posts/${p._id}`),
          everyone: () => mark(bob, '/api/posts?feed=all'),
          author: () => mark(ann, `/api/posts/${p._id}`),
        },
        change: async () => void (await send(w, bob, 'PUT', `/api/posts/${p._id}/save`)),
        expect: (r) => {
          must(r.post === true, "the saver's post");
          must(r.everyone === true, "the saver's list");
          must(r.author === false, "the author's post");
        },
      };
    },
  },
  {
    event: 'TagFollowed',
    title: "a followed tag's public posts join the follower's home feed, its list and state (issue 73)",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const t = tag();
      const p = await post(w, bob, [t]);
      await post(w, ann, [tag()]);
      return {
        reads: {
          home: () => ids(w, ann, '/api/posts?feed=following'),
          list: async () => ((await get(w, ann, '/api/tags')).body as { name: string }[]).map((x) => x.name),
          state: async () => ((await get(w, ann, `/api/tags/${t}`)).body as { following: boolean }).following,
        },
        change: async () => void (await send(w, ann, 'PUT', `/api/tags/${t}/follow`)),
        expect: (r) => {
          must(has(r.home, p._id), 'in the home feed');
          must(has(r.list, t), 'in the followed tags');
          must(r.state === true, 'followed');
        },
      };
    },
  },
  {
    event: 'TagFollowed',
    title: "an unfollowed tag's posts leave the home feed (issue 73)",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const t = tag();
      const p = await post(w, bob, [t]);
      await send(w, ann, 'PUT', `/api/tags/${t}/follow`);
      return {
        reads: { home: () => ids(w, ann, '/api/posts?feed=following') },
        change: async () => void (await send(w, ann, 'DELETE', `/api/tags/${t}/follow`)),
        expect: (r) => must(!has(r.home, p._id), 'out of the home feed'),
      };
    },
  },
  {
    event: 'CommentAdded',
    title: "a comment shows in the post's count and its comment list",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const p = await post(w, ann);
      // One comment before: a post with none answers no comments without reading a list.
      await send(w, ann, 'POST', `/api/posts/${p._id}/comments`, { message: 'first' });
      return {
        reads: {
          count: async () => ((await get(w, ann, `/api/posts/${p._id}`)).body as Post).commentsCount,
          comments: () => ids(w, ann, `/api/posts/${p._id}/comments`),
        },
        change: async () => void (await send(w, bob, 'POST', `/api/posts/${p._id}/comments`, { message: 'hi' })),
        expect: (r) => {
          must(r.count === 2, 'the count');
          must((r.comments as string[]).length === 2, 'the comment');
        },
      };
    },
  },
  {
    event: 'CommentDeleted',
    title: "a deleted comment leaves the post's count and its comment list",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const p = await post(w, ann);
      await send(w, ann, 'POST', `/api/posts/${p._id}/comments`, { message: 'stays' });
      const c = (await send(w, bob, 'POST', `/api/posts/${p._id}/comments`, { message: 'hi' })).json() as Comment;
      return {
        reads: {
          count: async () => ((await get(w, ann, `/api/posts/${p._id}`)).body as Post).commentsCount,
          comments: () => ids(w, ann, `/api/posts/${p._id}/comments`),
        },
        change: async () => void (await send(w, bob, 'DELETE', `/api/posts/${p._id}/comments/${c.commentId}`)),
        expect: (r) => {
          must(r.count === 1, 'the count');
          must((r.comments as string[]).length === 1, 'the comment gone');
        },
      };
    },
  },
  {
    event: 'CommentAdded',
    title: "a blocked person's new comment stays out of the blocker's count",
    async prepare(w) {
      const { bob, p, reads } = await blockedCommenter(w);
      return {
        reads,
        change: async () => void (await send(w, bob, 'POST', `/api/posts/${p._id}/comments`, { message: 'hi' })),
        expect: (r) => must(r.count === 1, `dave's comment only (${r.count})`),
      };
    },
  },
  {
    event: 'CommentDeleted',
    title: "a blocked person's deleted comment is not taken off the blocker's count twice",
    async prepare(w) {
      const { bob, p, reads } = await blockedCommenter(w);
      const c = (await send(w, bob, 'POST', `/api/posts/${p._id}/comments`, { message: 'hi' })).json() as Comment;
      return {
        reads,
        change: async () => void (await send(w, bob, 'DELETE', `/api/posts/${p._id}/comments/${c.commentId}`)),
        expect: (r) => must(r.count === 1, `dave's comment (${r.count})`),
      };
    },
  },
  {
    event: 'CommentReacted',
    title: "a comment's like shows in its counts and as the liker's own reaction",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const p = await post(w, ann);
      const c = (await send(w, ann, 'POST', `/api/posts/${p._id}/comments`, { message: 'hi' })).json() as Comment;
      const seen = async (who: SignedInUser) => {
        const [comment] = (await get(w, who, `/api/posts/${p._id}/comments`)).body as Comment[];
        return `${comment.likesCount}:${comment.myReaction}`;
      };
      return {
        reads: { author: () => seen(ann), liker: () => seen(bob) },
        change: async () =>
          void (await send(w, bob, 'PATCH', `/api/posts/${p._id}/comments/like`, { commentId: c.commentId })),
        expect: (r) => {
          must(r.author === '1:null', "the author's count");
          must(r.liker === '1:like', "the liker's reaction");
        },
      };
    },
  },
  {
    event: 'UserRenamed',
    title: "a new name shows on the user's posts, comments and in their own session",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const p = await post(w, ann);
      await send(w, bob, 'POST', `/api/posts/${p._id}/comments`, { message: 'hi' });
      const renamed = `${bob.username}_r`;
      const bobsPost = await post(w, bob);
      return {
        reads: {
          post: async () => ((await get(w, ann, `/api/posts/${bobsPost._id}`)).body as Post).creator,
          comment: async () => ((await get(w, ann, `/api/posts/${p._id}/comments`)).body as Comment[])[0].creator,
          // The authenticator app's label is the name the session carries.
          session: async () => {
            const res = await w.read.app.inject({ method: 'POST', url: '/api/auth/2fa/setup', headers: bob.headers });
            return decodeURIComponent((res.json() as { otpauthUrl: string }).otpauthUrl);
          },
        },
        change: async () =>
          void (await send(w, bob, 'PATCH', '/api/users/updateAccount', {
            email: bob.email,
            password: bob.password,
            username: renamed,
          })),
        expect: (r) => {
          must(r.post === renamed, 'on the post');
          must(r.comment === renamed, 'on the comment');
          must((r.session as string).includes(`:${renamed}?`), 'in the session');
        },
      };
    },
  },
  {
    event: 'UserProfileChanged',
    title: "a new avatar shows beside the user's posts and comments",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const p = await post(w, ann);
      await send(w, bob, 'POST', `/api/posts/${p._id}/comments`, { message: 'hi' });
      const bobsPost = await post(w, bob);
      const avatar = (await uploadImage(w.write.app, bob, 'avatar')).secure_url;
      return {
        reads: {
          post: async () => ((await get(w, ann, `/api/posts/${bobsPost._id}`)).body as Post).creatorImage,
          comment: async () => ((await get(w, ann, `/api/posts/${p._id}/comments`)).body as Comment[])[0].creatorImage,
        },
        change: async () =>
          void (await send(w, bob, 'PATCH', '/api/users/updateProfile', { email: bob.email, avatar })),
        expect: (r) => {
          must(r.post === avatar, 'on the post');
          must(r.comment === avatar, 'on the comment');
        },
      };
    },
  },
  {
    event: 'UserProfileChanged',
    title: "a new display name shows beside the user's posts and comments (issue 68, item 32)",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const p = await post(w, ann);
      await send(w, bob, 'POST', `/api/posts/${p._id}/comments`, { message: 'hi' });
      const bobsPost = await post(w, bob);
      return {
        reads: {
          post: async () => ((await get(w, ann, `/api/posts/${bobsPost._id}`)).body as Post).creatorName,
          comment: async () => ((await get(w, ann, `/api/posts/${p._id}/comments`)).body as Comment[])[0].creatorName,
          profile: async () =>
            ((await get(w, ann, `/api/users/${bob.username}`)).body as { user: Profile }).user.displayName,
        },
        change: async () => void (await send(w, bob, 'PATCH', '/api/users/updateProfile', { displayName: 'Bob B' })),
        expect: (r) => {
          must(r.post === 'Bob B', 'on the post');
          must(r.comment === 'Bob B', 'on the comment');
          must(r.profile === 'Bob B', 'on the profile');
        },
      };
    },
  },
  {
    event: 'UserProfileChanged',
    title: 'a new default audience starts the next post at once (issue 70)',
    async prepare(w) {
      const [ann] = await users(w, 1);
      return {
        // A post written where the reads are: the kept person there says the default.
        reads: { next: async () => (await createPost(w.read.app, ann)).audience },
        change: async () =>
          void (await send(w, ann, 'PATCH', '/api/users/updateProfile', { defaultAudience: 'unlisted' })),
        expect: (r) => must(r.next === 'unlisted', `the new default (${r.next})`),
      };
    },
  },
  {
    event: 'UserProfileChanged',
    title: 'a move shows on the moved profile, and stops new posts, at once (issue 76)',
    async prepare(w) {
      const [ann, bob, cat] = await users(w, 3);
      await send(w, bob, 'POST', '/api/users/me/aliases', { address: ann.username });
      return {
        reads: {
          profile: async () =>
            ((await get(w, cat, `/api/users/${ann.username}`)).body as { user: Profile }).user.movedTo?.username,
          // Whether ann may post is read from the kept person too (`moving/service.ts`).
          posting: () =>
            createPost(w.read.app, ann, { tags: ['sun'] }).then(
              () => 'posted',
              (error: Error) => error.message,
            ),
        },
        change: async () => void (await send(w, ann, 'POST', '/api/users/me/move', { address: bob.username })),
        expect: (r) => {
          must(r.profile === bob.username, 'on the profile');
          must(String(r.posting).includes('takes no new posts'), 'no new post');
        },
      };
    },
  },
  {
    event: 'UserRoleChanged',
    title: "a new role is the session's at once",
    async prepare(w) {
      const [ann] = await users(w, 1);
      return {
        reads: { admin: async () => (await get(w, ann, '/api/admin/reports')).status },
        change: () => makeAdmin(w.write, ann),
        expect: (r) => must(r.admin === 200, 'the admin page'),
      };
    },
  },
  {
    event: 'UserSuspended',
    title: 'a suspension ends the sessions and hides the posts and comments (admin API)',
    async prepare(w) {
      const admin = await adminOf(w);
      const [ann, sam] = await users(w, 2);
      const p = await post(w, sam);
      const q = await post(w, ann);
      await send(w, sam, 'POST', `/api/posts/${q._id}/comments`, { message: 'hi' });
      return {
        reads: {
          session: () => status(w, sam),
          everyone: () => ids(w, ann, '/api/posts?feed=all'),
          comments: () => ids(w, ann, `/api/posts/${q._id}/comments`),
        },
        change: async () => void (await send(w, admin, 'POST', `/api/admin/users/${sam.username}/suspend`)),
        expect: (r) => {
          must(r.session === 401, 'the session ended');
          must(!has(r.everyone, p._id), 'the post hidden');
          must((r.comments as string[]).length === 0, 'the comment hidden');
        },
      };
    },
  },
  {
    event: 'UserUnsuspended',
    title: 'an unsuspension brings the posts and comments back, in the followers’ home feeds too (admin API)',
    async prepare(w) {
      const admin = await adminOf(w);
      const [ann, sam] = await users(w, 2);
      // Ann's post first: its answer reads her follow list, which must be read again while Sam is
      // suspended (the list then leaves him out, and only the unsuspension's line brings him back).
      const q = await post(w, ann);
      await follow(w, ann, sam);
      const p = await post(w, sam);
      await send(w, sam, 'POST', `/api/posts/${q._id}/comments`, { message: 'hi' });
      await send(w, admin, 'POST', `/api/admin/users/${sam.username}/suspend`);
      return {
        reads: {
          home: () => ids(w, ann, '/api/posts?feed=following'),
          everyone: () => ids(w, ann, '/api/posts?feed=all'),
          comments: () => ids(w, ann, `/api/posts/${q._id}/comments`),
        },
        change: async () => void (await send(w, admin, 'POST', `/api/admin/users/${sam.username}/unsuspend`)),
        expect: (r) => {
          must(has(r.home, p._id), 'back in the home feed');
          must(has(r.everyone, p._id), "back in everyone's");
          must((r.comments as string[]).length === 1, 'the comment back');
        },
      };
    },
  },
  {
    event: 'AccountDeleted',
    title: "a deleted account's session, posts, comments and likes go everywhere",
    async prepare(w) {
      const [ann, dan] = await users(w, 2);
      await follow(w, ann, dan);
      const p = await post(w, dan);
      const q = await post(w, ann);
      await send(w, ann, 'POST', `/api/posts/${q._id}/comments`, { message: 'stays' });
      await send(w, dan, 'POST', `/api/posts/${q._id}/comments`, { message: 'hi' });
      await send(w, dan, 'PATCH', `/api/posts/${q._id}/like`);
      return {
        reads: {
          session: () => status(w, dan),
          everyone: () => ids(w, ann, '/api/posts?feed=all'),
          counts: async () => {
            const body = (await get(w, ann, `/api/posts/${q._id}`)).body as Post;
            return `${body.likesCount}:${body.commentsCount}`;
          },
          comments: () => ids(w, ann, `/api/posts/${q._id}/comments`),
          index: () => indexIds(w, ann),
        },
        change: async () => void (await send(w, dan, 'DELETE', '/api/users/me', { password: dan.password })),
        expect: (r) => {
          must(r.session === 401, 'the session ended');
          must(!has(r.everyone, p._id), 'the post gone');
          must(r.counts === '0:1', 'the like and comment uncounted');
          must((r.comments as string[]).length === 1, 'the comment gone');
          must(!has(r.index, p._id), 'gone from the index');
        },
      };
    },
  },
  {
    event: 'AccountDeleted',
    title: "a blocked person's comments leave the blocker's count once, with their account",
    async prepare(w) {
      const { bob, p, reads } = await blockedCommenter(w);
      await send(w, bob, 'POST', `/api/posts/${p._id}/comments`, { message: 'hi' });
      return {
        reads,
        change: async () => void (await send(w, bob, 'DELETE', '/api/users/me', { password: bob.password })),
        expect: (r) => must(r.count === 1, `dave's comment (${r.count})`),
      };
    },
  },
  {
    event: 'Followed',
    title: "a follow brings the person's posts into the follower's home feed",
    async prepare(w) {
      const [fan, star] = await users(w, 2);
      const p = await post(w, star);
      return {
        reads: { home: () => ids(w, fan, '/api/posts?feed=following') },
        change: async () => void (await follow(w, fan, star)),
        expect: (r) => must(has(r.home, p._id), 'in the home feed'),
      };
    },
  },
  {
    event: 'Unfollowed',
    title: "an unfollow takes the person's posts out of the home feed",
    async prepare(w) {
      const [fan, star] = await users(w, 2);
      await follow(w, fan, star);
      const p = await post(w, star);
      return {
        reads: { home: () => ids(w, fan, '/api/posts?feed=following') },
        change: async () => void (await send(w, fan, 'PATCH', `/api/users/${star.username}/unfollow`)),
        expect: (r) => must(!has(r.home, p._id), 'out of the home feed'),
      };
    },
  },
  {
    event: 'Unfollowed',
    title: 'a removed follower loses the followers-only post at once (issue 70)',
    async prepare(w) {
      const [fan, star] = await users(w, 2);
      await follow(w, fan, star);
      const p = await post(w, star);
      await send(w, star, 'PATCH', `/api/posts/${p._id}/manage`, { post: { audience: 'followers' } });
      return {
        reads: { page: async () => (await get(w, fan, `/api/posts/${p._id}`)).status },
        change: async () => void (await send(w, star, 'DELETE', `/api/users/${fan.username}/follower`)),
        expect: (r) => must(r.page === 404, `refused (${r.page})`),
      };
    },
  },
  {
    event: 'Blocked',
    title: "a block hides each from the other's lists",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const [a, b] = [await post(w, ann), await post(w, bob)];
      return {
        reads: {
          annSees: () => ids(w, ann, '/api/posts?feed=all'),
          bobSees: () => ids(w, bob, '/api/posts?feed=all'),
        },
        change: async () => void (await send(w, ann, 'PATCH', `/api/users/${bob.username}/block`)),
        expect: (r) => {
          must(!has(r.annSees, b._id), "the blocked person's post");
          must(!has(r.bobSees, a._id), "the blocker's post");
        },
      };
    },
  },
  {
    event: 'Blocked',
    title: 'the follows a block ended stay ended once it is undone',
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      await follow(w, ann, bob);
      await follow(w, bob, ann);
      const [a, b] = [await post(w, ann), await post(w, bob)];
      return {
        reads: {
          annsHome: () => ids(w, ann, '/api/posts?feed=following'),
          bobsHome: () => ids(w, bob, '/api/posts?feed=following'),
        },
        change: async () => {
          await send(w, ann, 'PATCH', `/api/users/${bob.username}/block`);
          await send(w, ann, 'PATCH', `/api/users/${bob.username}/unblock`);
        },
        expect: (r) => {
          must(!has(r.annsHome, b._id), "out of the blocker's home feed");
          must(!has(r.bobsHome, a._id), "out of the blocked person's home feed");
        },
      };
    },
  },
  {
    event: 'Unblocked',
    title: 'an unblock shows each to the other again',
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const [a, b] = [await post(w, ann), await post(w, bob)];
      await send(w, ann, 'PATCH', `/api/users/${bob.username}/block`);
      return {
        reads: {
          annSees: () => ids(w, ann, '/api/posts?feed=all'),
          bobSees: () => ids(w, bob, '/api/posts?feed=all'),
        },
        change: async () => void (await send(w, ann, 'PATCH', `/api/users/${bob.username}/unblock`)),
        expect: (r) => {
          must(has(r.annSees, b._id), "the unblocked person's post");
          must(has(r.bobSees, a._id), "the unblocker's post");
        },
      };
    },
  },
  {
    event: 'Muted',
    title: "a mute takes the person out of the muter's feeds",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const b = await post(w, bob);
      return {
        reads: { everyone: () => ids(w, ann, '/api/posts?feed=all') },
        change: async () => void (await send(w, ann, 'PATCH', `/api/users/${bob.username}/mute`)),
        expect: (r) => must(!has(r.everyone, b._id), 'the muted post'),
      };
    },
  },
  {
    event: 'Unmuted',
    title: "an unmute brings the person back into the muter's feeds, the home feed too",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      await follow(w, ann, bob);
      const b = await post(w, bob);
      await send(w, ann, 'PATCH', `/api/users/${bob.username}/mute`);
      return {
        reads: {
          home: () => ids(w, ann, '/api/posts?feed=following'),
          everyone: () => ids(w, ann, '/api/posts?feed=all'),
        },
        change: async () => void (await send(w, ann, 'PATCH', `/api/users/${bob.username}/unmute`)),
        expect: (r) => {
          must(has(r.home, b._id), 'back in the home feed');
          must(has(r.everyone, b._id), "back in everyone's");
        },
      };
    },
  },
  {
    event: 'SessionRevoked',
    title: 'a sign-out ends that session at once',
    async prepare(w) {
      const [ann] = await users(w, 1);
      return {
        reads: { session: () => status(w, ann) },
        change: async () => void (await send(w, ann, 'POST', '/api/auth/logout')),
        expect: (r) => must(r.session === 401, 'the session ended'),
      };
    },
  },
  {
    event: 'SessionsRevoked',
    title: '"sign out everywhere else" ends the other sessions at once and keeps this one',
    async prepare(w) {
      const [ann] = await users(w, 1);
      const phone = await otherDevice(w, ann);
      return {
        reads: { phone: () => status(w, phone), laptop: () => status(w, ann) },
        change: async () => void (await send(w, ann, 'DELETE', '/api/auth/sessions')),
        expect: (r) => {
          must(r.phone === 401, 'the other session ended');
          must(r.laptop === 200, 'this one kept');
        },
      };
    },
  },
  {
    event: 'DomainBlocksChanged',
    title: "a blocked domain is in every instance's list of blocks at once",
    async prepare(w) {
      const admin = await adminOf(w);
      const domain = `${tag()}.example`;
      return {
        reads: { domains: async () => (await get(w, admin, '/api/admin/domains')).body },
        change: async () => void (await send(w, admin, 'POST', '/api/admin/domains', { domain, severity: 'suspend' })),
        expect: (after) =>
          must(
            (after.domains as { domain: string }[]).some((d) => d.domain === domain),
            'the block',
          ),
      };
    },
  },
  // Explore (issue 73): the kept trends are worked out again when what they leave out changes.
  {
    event: 'TrendsChanged',
    title: "a post an admin hides from the trends leaves everyone's Explore",
    async prepare(w) {
      const { p, reads } = await trendingPost(w);
      const admin = await adminOf(w);
      return {
        reads,
        change: async () => void (await send(w, admin, 'PUT', `/api/admin/explore/hidden/post/${p._id}`)),
        expect: (r) => must(!has(r.trending, p._id), 'the post hidden'),
      };
    },
  },
  {
    event: 'TrendsChanged',
    title: "the posts of someone who turns discoverable off leave everyone's Explore",
    async prepare(w) {
      const { p, ann, reads } = await trendingPost(w);
      return {
        reads,
        change: async () => void (await send(w, ann, 'PATCH', '/api/users/updateProfile', { discoverable: false })),
        expect: (r) => must(!has(r.trending, p._id), 'the post gone'),
      };
    },
  },
  {
    event: 'UserSuspended',
    title: "a suspended person's likes count in the trends no more",
    async prepare(w) {
      const admin = await adminOf(w);
      const [ann, x, y] = await users(w, 3);
      const p = await post(w, ann);
      // Two people: the fewest that make a post trend.
      for (const fan of [x, y]) await send(w, fan, 'PATCH', `/api/posts/${p._id}/like`);
      await w.settle();
      await w.read.app.ctx.explore.trends.refresh();
      const trending = async () =>
        (await w.read.app.ctx.explore.explore.trendingPosts(null, 1_000)).map((shown) => shown._id);
      return {
        reads: { trending },
        change: async () => void (await send(w, admin, 'POST', `/api/admin/users/${x.username}/suspend`)),
        expect: (r) => must(!has(r.trending, p._id), 'the post liked by one person now'),
      };
    },
  },
  // The client API's statuses carry their authors' facts from the author cache.
  {
    event: 'PostCreated',
    title: "a new post counts in its author's account",
    async prepare(w) {
      const [reader, star] = await users(w, 2);
      await post(w, star);
      const auth = await bearer(w, reader);
      return {
        reads: { star: async () => counts((await accountsSeen(w, auth))[star.id]) },
        change: async () => void (await post(w, star)),
        expect: (r) => must(r.star === '0/0/2', `two posts (${r.star})`),
      };
    },
  },
  {
    event: 'PostDeleted',
    title: "a deleted post leaves its author's account's count",
    async prepare(w) {
      const [reader, star] = await users(w, 2);
      const gone = await post(w, star);
      await post(w, star);
      const auth = await bearer(w, reader);
      return {
        reads: { star: async () => counts((await accountsSeen(w, auth))[star.id]) },
        change: async () => void (await send(w, star, 'DELETE', `/api/posts/${gone._id}/manage`)),
        expect: (r) => must(r.star === '0/0/1', `one post (${r.star})`),
      };
    },
  },
  {
    event: 'UserRenamed',
    title: 'a name given up and taken by someone else names the new holder in the client API',
    async prepare(w) {
      const [reader, bob, cy] = await users(w, 3);
      await post(w, bob);
      await post(w, cy);
      const auth = await bearer(w, reader);
      const rename = (user: SignedInUser, username: string) =>
        send(w, user, 'PATCH', '/api/users/updateAccount', { email: user.email, password: user.password, username });
      return {
        reads: { cy: async () => (await accountsSeen(w, auth))[cy.id]?.username },
        change: async () => {
          await rename(bob, `${bob.username}_r`);
          await rename(cy, bob.username);
        },
        expect: (r) => must(r.cy === bob.username, `cy under the name (${r.cy})`),
      };
    },
  },
  {
    event: 'UserProfileChanged',
    title: "a new description shows in the author's account",
    async prepare(w) {
      const [reader, bob] = await users(w, 2);
      await post(w, bob);
      const auth = await bearer(w, reader);
      return {
        reads: { note: async () => (await accountsSeen(w, auth))[bob.id]?.note },
        change: async () =>
          void (await send(w, bob, 'PATCH', '/api/users/updateProfile', {
            email: bob.email,
            description: 'new words',
          })),
        expect: (r) => must(String(r.note).includes('new words'), `the note (${r.note})`),
      };
    },
  },
  {
    event: 'AccountDeleted',
    title: "a deleted follower leaves the followed author's account's count",
    async prepare(w) {
      const [reader, star, dan] = await users(w, 3);
      await follow(w, dan, star);
      await post(w, star);
      const auth = await bearer(w, reader);
      return {
        reads: { star: async () => counts((await accountsSeen(w, auth))[star.id]) },
        change: async () => void (await send(w, dan, 'DELETE', '/api/users/me', { password: dan.password })),
        expect: (r) => must(r.star === '0/0/1', `no follower (${r.star})`),
      };
    },
  },
  {
    event: 'Followed',
    title: "a follow counts in both authors' accounts",
    async prepare(w) {
      const [reader, fan, star] = await users(w, 3);
      await post(w, fan);
      await post(w, star);
      const auth = await bearer(w, reader);
      return {
        reads: { accounts: () => accountsSeen(w, auth) },
        change: async () => void (await follow(w, fan, star)),
        expect: (r) => {
          const seen = r.accounts as Record<string, AccountSeen>;
          must(counts(seen[star.id]) === '1/0/1', `the follower counted (${counts(seen[star.id])})`);
          must(counts(seen[fan.id]) === '0/1/1', `the followee counted (${counts(seen[fan.id])})`);
        },
      };
    },
  },
  {
    event: 'Unfollowed',
    title: "an unfollow leaves both authors' accounts' counts",
    async prepare(w) {
      const [reader, fan, star] = await users(w, 3);
      await follow(w, fan, star);
      await post(w, fan);
      await post(w, star);
      const auth = await bearer(w, reader);
      return {
        reads: { accounts: () => accountsSeen(w, auth) },
        change: async () => void (await send(w, fan, 'PATCH', `/api/users/${star.username}/unfollow`)),
        expect: (r) => {
          const seen = r.accounts as Record<string, AccountSeen>;
          must(counts(seen[star.id]) === '0/0/1', `the follower gone (${counts(seen[star.id])})`);
          must(counts(seen[fan.id]) === '0/0/1', `the followee gone (${counts(seen[fan.id])})`);
        },
      };
    },
  },
  {
    event: 'Blocked',
    title: "a block's ended follows leave both authors' accounts' counts",
    async prepare(w) {
      const [reader, ann, bob] = await users(w, 3);
      await follow(w, ann, bob);
      await follow(w, bob, ann);
      await post(w, ann);
      await post(w, bob);
      const auth = await bearer(w, reader);
      return {
        reads: { accounts: () => accountsSeen(w, auth) },
        change: async () => void (await send(w, ann, 'PATCH', `/api/users/${bob.username}/block`)),
        expect: (r) => {
          const seen = r.accounts as Record<string, AccountSeen>;
          must(counts(seen[ann.id]) === '0/0/1', `the blocker's follows gone (${counts(seen[ann.id])})`);
          must(counts(seen[bob.id]) === '0/0/1', `the blocked's follows gone (${counts(seen[bob.id])})`);
        },
      };
    },
  },
  {
    event: 'DomainBlocksChanged',
    title: "a suspended domain's people are suspended with it: their posts and comments leave every list",
    async prepare(w) {
      const [admin, ann] = [await adminOf(w), (await users(w, 1))[0]];
      const domain = `${tag()}.example`;
      const bob = await remotePerson(w, domain);
      const t = tag();
      const theirs = await remotePost(w, bob, [t]);
      const mine = await post(w, ann);
      await w.write.app.ctx.comments.add(bob, mine._id, 'Hello from elsewhere');
      return {
        reads: {
          tagged: () => ids(w, ann, `/api/posts/tagged?tags=${t}`),
          post: async () => (await get(w, ann, `/api/posts/${theirs}`)).status,
          comments: () => ids(w, ann, `/api/posts/${mine._id}/comments`),
        },
        change: async () => void (await domainBlock(w, admin, domain, 'suspend')),
        expect: (r) => {
          must(!has(r.tagged, theirs), 'out of the tag page');
          must(r.post === 404, 'the post hidden');
          must((r.comments as string[]).length === 0, 'the comment hidden');
        },
      };
    },
  },
  {
    event: 'DomainBlocksChanged',
    title: "a silenced domain's people are limited in the client API's accounts (the authors' facts)",
    async prepare(w) {
      const [admin, ann] = [await adminOf(w), (await users(w, 1))[0]];
      const domain = `${tag()}.example`;
      const bob = await remotePerson(w, domain);
      await send(w, ann, 'PATCH', `/api/users/${encodeURIComponent(bob.username)}/follow`);
      const theirs = await remotePost(w, bob, [tag()]);
      const auth = await bearer(w, ann);
      return {
        reads: {
          limited: async () => {
            const res = await w.read.app.inject({ method: 'GET', url: '/api/v1/timelines/home', headers: auth });
            const status = (res.json() as { id: string; account: { limited?: boolean } }[]).find(
              (s) => s.id === theirs,
            );
            return status ? (status.account.limited ?? false) : 'missing';
          },
        },
        change: async () => void (await domainBlock(w, admin, domain, 'silence')),
        expect: (r) => must(r.limited === true, `limited (${String(r.limited)})`),
      };
    },
  },
  {
    event: 'DomainBlocksChanged',
    title: "a lifted suspension gives the domain's people back to their followers' home feeds",
    async prepare(w) {
      const [admin, ann] = [await adminOf(w), (await users(w, 1))[0]];
      const domain = `${tag()}.example`;
      const bob = await remotePerson(w, domain);
      await send(w, ann, 'PATCH', `/api/users/${encodeURIComponent(bob.username)}/follow`);
      const theirs = await remotePost(w, bob, [tag()]);
      await domainBlock(w, admin, domain, 'suspend');
      return {
        reads: { home: () => ids(w, ann, '/api/posts?feed=following') },
        change: async () => void (await send(w, admin, 'DELETE', `/api/admin/domains/${domain}`)),
        expect: (r) => must(has(r.home, theirs), 'back in the home feed'),
      };
    },
  },
  {
    event: 'DomainBlocksChanged',
    title:
      "a silenced domain's people leave the tag pages of those who do not follow them, and stay in their followers'",
    async prepare(w) {
      const [admin, [fan, stranger]] = [await adminOf(w), await users(w, 2)];
      const domain = `${tag()}.example`;
      const bob = await remotePerson(w, domain);
      await send(w, fan, 'PATCH', `/api/users/${encodeURIComponent(bob.username)}/follow`);
      const t = tag();
      const theirs = await remotePost(w, bob, [t]);
      return {
        reads: {
          fans: () => ids(w, fan, `/api/posts/tagged?tags=${t}`),
          strangers: () => ids(w, stranger, `/api/posts/tagged?tags=${t}`),
        },
        change: async () => void (await domainBlock(w, admin, domain, 'silence')),
        expect: (r) => {
          must(has(r.fans, theirs), "still in the follower's tag page");
          must(!has(r.strangers, theirs), "out of the stranger's tag page");
        },
      };
    },
  },
  {
    event: 'Followed',
    title: "a silenced person one follows comes into one's tag pages",
    async prepare(w) {
      const [admin, [fan]] = [await adminOf(w), await users(w, 1)];
      const domain = `${tag()}.example`;
      const bob = await remotePerson(w, domain);
      const t = tag();
      const theirs = await remotePost(w, bob, [t]);
      await domainBlock(w, admin, domain, 'silence');
      return {
        reads: { tagged: () => ids(w, fan, `/api/posts/tagged?tags=${t}`) },
        change: async () => void (await send(w, fan, 'PATCH', `/api/users/${encodeURIComponent(bob.username)}/follow`)),
        expect: (r) => must(has(r.tagged, theirs), 'in the tag page'),
      };
    },
  },
  {
    event: 'Unfollowed',
    title: "a silenced person one stops following leaves one's tag pages",
    async prepare(w) {
      const [admin, [fan]] = [await adminOf(w), await users(w, 1)];
      const domain = `${tag()}.example`;
      const bob = await remotePerson(w, domain);
      await send(w, fan, 'PATCH', `/api/users/${encodeURIComponent(bob.username)}/follow`);
      const t = tag();
      const theirs = await remotePost(w, bob, [t]);
      await domainBlock(w, admin, domain, 'silence');
      return {
        reads: { tagged: () => ids(w, fan, `/api/posts/tagged?tags=${t}`) },
        change: async () =>
          void (await send(w, fan, 'PATCH', `/api/users/${encodeURIComponent(bob.username)}/unfollow`)),
        expect: (r) => must(!has(r.tagged, theirs), 'out of the tag page'),
      };
    },
  },
  // Profiles are read from the caches (users/profileRead.ts): the person's facts, the viewer's
  // hidden people and follow list.
  {
    event: 'UserSuspended',
    title: "a suspended person's profile is gone",
    async prepare(w) {
      const [admin, [ann, sam]] = [await adminOf(w), await users(w, 2)];
      return {
        reads: { profile: () => profileSeen(w, ann, sam.username) },
        change: async () => void (await send(w, admin, 'POST', `/api/admin/users/${sam.username}/suspend`)),
        expect: (r) => must(r.profile === '404', `hidden (${r.profile})`),
      };
    },
  },
  {
    event: 'UserUnsuspended',
    title: "an unsuspended person's profile is back",
    async prepare(w) {
      const [admin, [ann, sam]] = [await adminOf(w), await users(w, 2)];
      await send(w, admin, 'POST', `/api/admin/users/${sam.username}/suspend`);
      return {
        reads: { profile: () => profileSeen(w, ann, sam.username) },
        change: async () => void (await send(w, admin, 'POST', `/api/admin/users/${sam.username}/unsuspend`)),
        expect: (r) => must(r.profile === '--- 0/0/0', `shown (${r.profile})`),
      };
    },
  },
  {
    event: 'UserRenamed',
    title: 'a renamed person has a profile at their new name only',
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      const renamed = `${bob.username}x`;
      return {
        reads: {
          old: () => profileSeen(w, ann, bob.username),
          renamed: () => profileSeen(w, ann, renamed),
        },
        change: async () =>
          void (await send(w, bob, 'PATCH', '/api/users/updateAccount', {
            email: bob.email,
            password: bob.password,
            username: renamed,
          })),
        expect: (r) => {
          must(r.old === '404', `not at the old name (${r.old})`);
          must(r.renamed === '--- 0/0/0', `at the new one (${r.renamed})`);
        },
      };
    },
  },
  {
    event: 'UserProfileChanged',
    title: 'a new description shows on the profile',
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      return {
        reads: {
          profile: async () => ((await get(w, ann, `/api/users/${bob.username}`)).body as { user: Profile }).user,
        },
        change: async () =>
          void (await send(w, bob, 'PATCH', '/api/users/updateProfile', { email: bob.email, description: 'New' })),
        expect: (r) => must((r.profile as Profile).description === 'New', 'the description'),
      };
    },
  },
  {
    event: 'PostCreated',
    title: "a new post counts on its creator's profile",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      return {
        reads: { profile: () => profileSeen(w, ann, bob.username) },
        change: async () => void (await post(w, bob)),
        expect: (r) => must(r.profile === '--- 0/0/1', `one post (${r.profile})`),
      };
    },
  },
  {
    event: 'Followed',
    title: "a follow shows on the followee's profile: followed by me, one follower",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      return {
        reads: {
          // Ann's home feed keeps her follow list: her profile reads answer from it.
          home: () => ids(w, ann, '/api/posts?feed=following'),
          bob: () => profileSeen(w, ann, bob.username),
          ann: () => profileSeen(w, bob, ann.username),
        },
        change: async () => void (await follow(w, ann, bob)),
        expect: (r) => {
          must(r.bob === 'F-- 1/0/0', `the followee's (${r.bob})`);
          must(r.ann === '--- 0/1/0', `the follower's (${r.ann})`);
        },
      };
    },
  },
  {
    event: 'Unfollowed',
    title: 'an unfollow shows on the profile: not followed, no follower',
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      await follow(w, ann, bob);
      return {
        reads: {
          home: () => ids(w, ann, '/api/posts?feed=following'),
          bob: () => profileSeen(w, ann, bob.username),
          ann: () => profileSeen(w, bob, ann.username),
        },
        change: async () => void (await send(w, ann, 'PATCH', `/api/users/${bob.username}/unfollow`)),
        expect: (r) => {
          must(r.bob === '--- 0/0/0', `the followee's (${r.bob})`);
          must(r.ann === '--- 0/0/0', `the follower's (${r.ann})`);
        },
      };
    },
  },
  {
    event: 'Blocked',
    title: "a block shows on the blocker's view of the profile and hides the blocker's from the blocked",
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      await follow(w, ann, bob);
      return {
        reads: { annSees: () => profileSeen(w, ann, bob.username), bobSees: () => profileSeen(w, bob, ann.username) },
        change: async () => void (await send(w, ann, 'PATCH', `/api/users/${bob.username}/block`)),
        expect: (r) => {
          must(r.annSees === '-B- 0/0/0', `blocked, the follow ended (${r.annSees})`);
          must(r.bobSees === '404', `the blocker hidden (${r.bobSees})`);
        },
      };
    },
  },
  {
    event: 'Unblocked',
    title: 'an unblock shows both profiles again',
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      await send(w, ann, 'PATCH', `/api/users/${bob.username}/block`);
      return {
        reads: { annSees: () => profileSeen(w, ann, bob.username), bobSees: () => profileSeen(w, bob, ann.username) },
        change: async () => void (await send(w, ann, 'PATCH', `/api/users/${bob.username}/unblock`)),
        expect: (r) => {
          must(r.annSees === '--- 0/0/0', `not blocked (${r.annSees})`);
          must(r.bobSees === '--- 0/0/0', `the blocker shown (${r.bobSees})`);
        },
      };
    },
  },
  {
    event: 'Muted',
    title: 'a mute shows on the profile, and the follow stays',
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      await follow(w, ann, bob);
      return {
        reads: {
          home: () => ids(w, ann, '/api/posts?feed=following'),
          profile: () => profileSeen(w, ann, bob.username),
        },
        change: async () => void (await send(w, ann, 'PATCH', `/api/users/${bob.username}/mute`)),
        expect: (r) => must(r.profile === 'F-M 1/0/0', `muted, followed (${r.profile})`),
      };
    },
  },
  {
    event: 'Unmuted',
    title: 'an unmute shows on the profile, and the follow stays',
    async prepare(w) {
      const [ann, bob] = await users(w, 2);
      await follow(w, ann, bob);
      await send(w, ann, 'PATCH', `/api/users/${bob.username}/mute`);
      return {
        reads: {
          home: () => ids(w, ann, '/api/posts?feed=following'),
          profile: () => profileSeen(w, ann, bob.username),
        },
        change: async () => void (await send(w, ann, 'PATCH', `/api/users/${bob.username}/unmute`)),
        expect: (r) => must(r.profile === 'F-- 1/0/0', `unmuted, followed (${r.profile})`),
      };
    },
  },
  {
    event: 'AccountDeleted',
    title: "a deleted account's profile is gone, and its follow leaves the followee's count",
    async prepare(w) {
      const [ann, bob, dan] = await users(w, 3);
      await follow(w, dan, bob);
      return {
        reads: { dan: () => profileSeen(w, ann, dan.username), bob: () => profileSeen(w, ann, bob.username) },
        change: async () => void (await send(w, dan, 'DELETE', '/api/users/me', { password: dan.password })),
        expect: (r) => {
          must(r.dan === '404', `gone (${r.dan})`);
          must(r.bob === '--- 0/0/0', `no follower (${r.bob})`);
        },
      };
    },
  },
  {
    event: 'DomainBlocksChanged',
    title: "a suspended domain's people's profiles are gone",
    async prepare(w) {
      const [admin, [ann]] = [await adminOf(w), await users(w, 1)];
      const domain = `${tag()}.example`;
      const bob = await remotePerson(w, domain);
      return {
        reads: { profile: () => profileSeen(w, ann, bob.username) },
        change: async () => void (await domainBlock(w, admin, domain, 'suspend')),
        expect: (r) => must(r.profile === '404', `hidden (${r.profile})`),
      };
    },
  },

  {
    event: 'FollowRequested',
    title: 'a follow request waits in the badge and says Requested on the profile',
    async prepare(w) {
      const star = await lockedPerson(w);
      const [fan] = await users(w, 1);
      return {
        reads: {
          count: () => requestCount(w, star),
          profile: async () => (await get(w, fan, `/api/users/${star.username}`)).body.user.followRequestedByMe,
        },
        change: async () => void (await follow(w, fan, star)),
        expect: (r) => must(r.count === 1 && r.profile === true, `waiting (${r.count}, ${r.profile})`),
      };
    },
  },
  {
    event: 'Followed',
    title: 'an approved request leaves the badge',
    async prepare(w) {
      const star = await lockedPerson(w);
      const [fan] = await users(w, 1);
      await follow(w, fan, star);
      return {
        reads: { count: () => requestCount(w, star) },
        change: async () => void (await send(w, star, 'POST', `/api/follow-requests/${fan.id}/approve`)),
        expect: (r) => must(r.count === 0, `answered (${r.count})`),
      };
    },
  },
  {
    event: 'FollowRequestDropped',
    title: 'a rejected request leaves the badge',
    async prepare(w) {
      const star = await lockedPerson(w);
      const [fan] = await users(w, 1);
      await follow(w, fan, star);
      return {
        reads: { count: () => requestCount(w, star) },
        change: async () => void (await send(w, star, 'POST', `/api/follow-requests/${fan.id}/reject`)),
        expect: (r) => must(r.count === 0, `answered (${r.count})`),
      };
    },
  },
  {
    event: 'FollowApprovalChanged',
    title: 'turning "Approve followers" on shows on the profile',
    async prepare(w) {
      const [star, fan] = await users(w, 2);
      return {
        reads: { locked: async () => (await get(w, fan, `/api/users/${star.username}`)).body.user.approveFollowers },
        change: async () => void (await send(w, star, 'PATCH', '/api/users/updateProfile', { approveFollowers: true })),
        expect: (r) => must(r.locked === true, `locked (${r.locked})`),
      };
    },
  },
  {
    event: 'Unfollowed',
    title: "a removed follower loses the person's posts from the home feed",
    async prepare(w) {
      const [fan, star] = await users(w, 2);
      await follow(w, fan, star);
      const p = await post(w, star);
      return {
        reads: { home: () => ids(w, fan, '/api/posts?feed=following') },
        change: async () => void (await send(w, star, 'DELETE', `/api/users/${fan.username}/follower`)),
        expect: (r) => must(!has(r.home, p._id), 'out of the home feed'),
      };
    },
  },
  {
    event: 'Blocked',
    title: 'blocking a requester ends their request',
    async prepare(w) {
      const star = await lockedPerson(w);
      const [fan] = await users(w, 1);
      await follow(w, fan, star);
      return {
        reads: { count: () => requestCount(w, star) },
        change: async () => void (await send(w, star, 'PATCH', `/api/users/${fan.username}/block`)),
        expect: (r) => must(r.count === 0, `ended (${r.count})`),
      };
    },
  },
  {
    event: 'Blocked',
    title: 'blocking the person one asked to follow ends the request',
    async prepare(w) {
      const star = await lockedPerson(w);
      const [fan] = await users(w, 1);
      await follow(w, fan, star);
      return {
        reads: { count: () => requestCount(w, star) },
        change: async () => void (await send(w, fan, 'PATCH', `/api/users/${star.username}/block`)),
        expect: (r) => must(r.count === 0, `ended (${r.count})`),
      };
    },
  },
  {
    event: 'AccountDeleted',
    title: "a deleted requester's request leaves the badge",
    async prepare(w) {
      const star = await lockedPerson(w);
      const [fan] = await users(w, 1);
      await follow(w, fan, star);
      return {
        reads: { count: () => requestCount(w, star) },
        change: async () => void (await send(w, fan, 'DELETE', '/api/users/me', { password: fan.password })),
        expect: (r) => must(r.count === 0, `gone (${r.count})`),
      };
    },
  },
];

/** Runs the case; resolves whether the change was seen (a failed setup or write throws). */
async function seen(w: World, c: Case): Promise<{ seen: boolean; why?: string }> {
  const step = await c.prepare(w);
  await w.settle();
  for (const read of Object.values(step.reads)) for (let i = 0; i < 3; i++) await read();
  await step.change();
  await w.settle();
  const after: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(step.reads)) after[name] = await read();
  try {
    step.expect(after);
    return { seen: true };
  } catch (error) {
    return { seen: false, why: (error as Error).message };
  }
}

/** Both home feed indexes loaded: pages are walked in memory, and kept. */
async function indexesReady(...apps: TestApp[]): Promise<void> {
  for (const t of apps) await t.app.ctx.homeFeed.start();
  for (const t of apps) expect(t.app.ctx.homeFeed.state).toBe('ready');
}

const alone = (t: TestApp): World => ({ write: t, read: t, settle: async () => {} });

describe('the invalidation table', () => {
  it('has a case for every event that makes a cache forget', () => {
    const covered = new Set(CASES.map((c) => c.event));
    const uncovered = EVENT_TYPES.filter((type) => INVALIDATION[type].length > 0 && !covered.has(type));
    expect(uncovered).toEqual([]);
  });

  describe('one instance', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(LONG_CACHES);
      await indexesReady(t);
    });
    afterAll(async () => t?.close());

    it.each(CASES.map((c) => [c.event, c.title, c] as const))('%s: %s', async (_, __, c) => {
      expect(await seen(alone(t), c)).toEqual({ seen: true });
    });

    // Each line of the table taken out in turn: some case of its event must then miss the change.
    // Not in a mutation run (vitest.mutation.config.ts): it mutates the table's shape, which StrykerJS
    // leaves out there (`ignoreStatic`: built at load, every mutant would need every test).
    const lines = EVENT_TYPES.flatMap((type) => INVALIDATION[type].map((_, index) => [type, index + 1] as const));
    it.skipIf(process.env.MUTATION_RUN).each(lines)('without %s line %i, a change goes unseen', async (type, line) => {
      const table: InvalidationTable = { ...INVALIDATION, [type]: INVALIDATION[type].filter((_, i) => i !== line - 1) };
      // Outside writes asked once, at its first request: `t`'s workers share the database (they may
      // take this app's jobs), and a commit of theirs would make every cache forget mid-case.
      const partial = await createTestApp(
        { ...LONG_CACHES, OUTSIDE_WRITES_CHECK_MS: String(24 * 3_600_000) },
        { sameDatabaseAs: t, invalidation: table },
      );
      try {
        await indexesReady(partial);
        const results = [];
        for (const c of CASES.filter((c) => c.event === type)) results.push((await seen(alone(partial), c)).seen);
        expect(results).toContain(false);
      } finally {
        await partial.close();
      }
    });
  });

  describe.runIf(process.env.TEST_REDIS_URL)('two instances through Redis', () => {
    let one: TestApp;
    let two: TestApp;
    let world: World;
    beforeAll(async () => {
      const env = { ...LONG_CACHES, REDIS_URL: process.env.TEST_REDIS_URL! };
      one = await createTestApp(env);
      two = await createTestApp(env, { sameDatabaseAs: one });
      await indexesReady(one, two);
      world = { write: one, read: two, settle: await busSettler(one, two) };
    });
    afterAll(async () => {
      await two?.close();
      await one?.close();
    });

    it.each(CASES.map((c) => [c.event, c.title, c] as const))('%s: %s', async (_, __, c) => {
      expect(await seen(world, c)).toEqual({ seen: true });
    });
  });
});
