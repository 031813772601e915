/**
 * Writes no event tells of (`server/cache/outsideWrites.ts`): on SQLite, what another process
 * commits (here: a second instance on the same file, without Redis, so its events stay its own)
 * makes every cache of this instance forget at its next request. Each cache of the registry has a
 * case, and a case of it fails when `forgetEverything` leaves that cache out: the caches keep things
 * for a minute, so only the check makes the change seen. PostgreSQL's counterpart, its LISTEN: postgresWrites.test.ts.
 */
import { randomUUID } from 'node:crypto';
import type { Comment, Post } from '../../lib/types';
import { loadConfig } from '../../server/config';
import { forgetOnOutsideWrites } from '../../server/cache/outsideWrites';
import { openDatabase } from '../../server/db/database';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from './helpers';

const LONG_CACHES = { SESSION_CACHE_MS: '60000', HOME_FEED_SYNC_MS: '60000', POST_CACHE_MS: '60000' };

const get = async (t: TestApp, user: SignedInUser, url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: user.headers });
  return { status: res.statusCode, body: res.statusCode === 200 ? res.json() : null };
};
/** Read three times: whatever a cache keeps from its second read on is kept. */
const readOften = async (t: TestApp, user: SignedInUser, url: string) => {
  for (let i = 0; i < 3; i++) await get(t, user, url);
  return get(t, user, url);
};
/**
 * Reads after a change, enough for a forgotten page and its rows to be read twice and then served
 * from what the caches kept: the first reads come from the database.
 */
const readsAfter = async (t: TestApp, user: SignedInUser, url: string) => {
  const bodies = [];
  for (let i = 0; i < 5; i++) bodies.push((await get(t, user, url)).body);
  return bodies;
};
const ids = (posts: Post[]) => posts.map((p) => p._id);

/** A change made elsewhere, after reads here: whether the next reads here see it. */
interface Case {
  title: string;
  /** The caches (and what starts over with them) that would show the change unseen if not forgotten. */
  caches: string[];
  seen(here: TestApp, elsewhere: TestApp): Promise<boolean>;
}

/**
 * Nothing they keep ever changes: a token's scopes and app, a stored image's sizes, and what is
 * rendered of a shared row or facts object (held by its identity: a change is a new object) or
 * checked against those objects before it is sent (a timeline's last answer).
 */
const UNCHANGING = [
  'token_facts',
  'image_infos',
  'post_views',
  'post_json',
  'post_recounts',
  'comment_views',
  'comment_json',
  'status_json',
  'account_json',
  'timeline_answers',
  'post_notes',
  'explore_tags',
  'explore_people',
  'explore_tags_json',
  'explore_people_json',
];

async function inject(
  t: TestApp,
  user: SignedInUser,
  method: 'PATCH' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) {
  const res = await t.app.inject({ method, url, headers: user.headers, payload });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res;
}

const CASES: Case[] = [
  {
    title: 'a post edited elsewhere',
    caches: ['posts'],
    async seen(here, elsewhere) {
      const author = await signIn(here.app);
      const post = await createPost(here.app, author, { message: 'before' });
      if ((await readOften(here, author, `/api/posts/${post._id}`)).body.message !== 'before') throw new Error('setup');
      await inject(elsewhere, author, 'PATCH', `/api/posts/${post._id}/manage`, { post: { message: 'after' } });
      return (await get(here, author, `/api/posts/${post._id}`)).body.message === 'after';
    },
  },
  {
    title: 'a reaction made elsewhere',
    caches: ['posts', 'post_readers'],
    async seen(here, elsewhere) {
      const author = await signIn(here.app);
      const post = await createPost(here.app, author);
      // The reader's own page: nobody else's post comes between.
      const url = `/api/users/${author.username}/posts`;
      if ((await readOften(here, author, url)).body[0].myReaction !== null) throw new Error('setup');
      await inject(elsewhere, author, 'PATCH', `/api/posts/${post._id}/like`, {});
      return (await readsAfter(here, author, url)).every(
        ([seen]: Post[]) => seen._id === post._id && seen.myReaction === 'like' && seen.likesCount === 1,
      );
    },
  },
  {
    title: 'a comment added elsewhere',
    caches: ['comment_pages', 'posts'],
    async seen(here, elsewhere) {
      const author = await signIn(here.app);
      const post = await createPost(here.app, author);
      const url = `/api/posts/${post._id}/comments`;
      // One before: a post without comments answers none without reading its list.
      await inject(here, author, 'POST', url, { message: 'first' });
      await readOften(here, author, url);
      await readOften(here, author, `/api/posts/${post._id}`);
      await inject(elsewhere, author, 'POST', url, { message: 'second' });
      const comments = (await get(here, author, url)).body as Comment[];
      const count = ((await get(here, author, `/api/posts/${post._id}`)).body as Post).commentsCount;
      return comments.map((c) => c.message).join() === 'second,first' && count === 2;
    },
  },
  {
    title: 'a comment liked elsewhere',
    caches: ['comments', 'comment_readers'],
    async seen(here, elsewhere) {
      const author = await signIn(here.app);
      const post = await createPost(here.app, author);
      const url = `/api/posts/${post._id}/comments`;
      const comment = (await inject(here, author, 'POST', url, { message: 'hi' })).json() as Comment;
      await readOften(here, author, url);
      await inject(elsewhere, author, 'PATCH', `/api/posts/${post._id}/comments/like`, {
        commentId: comment.commentId,
      });
      return (await readsAfter(here, author, url)).every(
        ([seen]: Comment[]) => seen.myReaction === 'like' && seen.likesCount === 1,
      );
    },
  },
  {
    title: 'a block made elsewhere hides the blocked person’s posts here',
    caches: ['hidden_authors'],
    async seen(here, elsewhere) {
      const reader = await signIn(here.app);
      const other = await signIn(here.app);
      const post = await createPost(here.app, other);
      if (!ids((await readOften(here, reader, '/api/posts?feed=all')).body).includes(post._id))
        throw new Error('setup');
      await inject(elsewhere, reader, 'PATCH', `/api/users/${other.username}/block`);
      return (await readsAfter(here, reader, '/api/posts?feed=all')).every((page) => !ids(page).includes(post._id));
    },
  },
  {
    title: 'a comment made elsewhere by someone the reader blocks stays out of the count',
    caches: ['comments_by_person'],
    async seen(here, elsewhere) {
      const [reader, author, blocked] = [await signIn(here.app), await signIn(here.app), await signIn(here.app)];
      const post = await createPost(here.app, author);
      const url = `/api/posts/${post._id}`;
      await inject(here, blocked, 'POST', `${url}/comments`, { message: 'one' });
      await inject(here, reader, 'PATCH', `/api/users/${blocked.username}/block`);
      if ((await readOften(here, reader, url)).body.commentsCount !== 0) throw new Error('setup');
      await inject(elsewhere, blocked, 'POST', `${url}/comments`, { message: 'two' });
      return (await readsAfter(here, reader, url)).every((seen: Post) => seen.commentsCount === 0);
    },
  },
  {
    title: 'a post saved elsewhere shows as saved here (issue 73)',
    caches: ['saved_posts'],
    async seen(here, elsewhere) {
      const [reader, author] = [await signIn(here.app), await signIn(here.app)];
      const post = await createPost(here.app, author);
      const url = `/api/posts/${post._id}`;
      if ((await readOften(here, reader, url)).body.savedByMe) throw new Error('setup');
      const saved = await elsewhere.app.inject({ method: 'PUT', url: `${url}/save`, headers: reader.headers });
      if (saved.statusCode !== 200) throw new Error(`save: ${saved.statusCode}`);
      return (await get(here, reader, url)).body.savedByMe === true;
    },
  },
  {
    title: 'a tag followed elsewhere, and a new post with it made elsewhere, reach the home feed here (issue 73)',
    caches: ['followed_tags', 'tag_heads', 'post_pages'],
    async seen(here, elsewhere) {
      const [reader, author] = [await signIn(here.app), await signIn(here.app)];
      const tag = `t${randomUUID().slice(0, 8)}`;
      const older = await createPost(here.app, author, { tags: [tag] });
      const url = '/api/posts?feed=following';
      if ((await readOften(here, reader, url)).body.length !== 0) throw new Error('setup');
      await inject(elsewhere, reader, 'PUT', `/api/tags/${tag}/follow`);
      // Each read after the change: the first of a page is the database's, the next ones the caches'.
      const seenIn = async (want: string[]) =>
        (await readsAfter(here, reader, url)).every((body: Post[]) => ids(body).join() === want.join());
      const followedSeen = await seenIn([older._id]);
      const newer = await createPost(elsewhere.app, author, { tags: [tag] });
      return followedSeen && (await seenIn([newer._id, older._id]));
    },
  },
  {
    title: "a person who turns discoverable off elsewhere leaves Explore's trends here (issue 73)",
    caches: ['explore_trends'],
    async seen(here, elsewhere) {
      const [ann, x, y, reader] = await Promise.all([1, 2, 3, 4].map(() => signIn(here.app)));
      const post = await createPost(here.app, ann);
      for (const fan of [x, y]) await inject(here, fan, 'PATCH', `/api/posts/${post._id}/like`);
      await here.app.ctx.explore.trends.refresh();
      const trending = async () =>
        ((await readOften(here, reader, '/api/explore')).body as { posts: Post[] }).posts.some(
          (p) => p._id === post._id,
        );
      if (!(await trending())) throw new Error('setup');
      await inject(elsewhere, ann, 'PATCH', '/api/users/updateProfile', { discoverable: false });
      return !(await trending());
    },
  },
  {
    title: 'someone followed elsewhere by a person one follows is suggested here (issue 73)',
    caches: ['explore_suggestions'],
    async seen(here, elsewhere) {
      const [reader, friend, newcomer] = await Promise.all([1, 2, 3].map(() => signIn(here.app)));
      await inject(here, reader, 'PATCH', `/api/users/${friend.username}/follow`, {});
      const suggested = (body: unknown) =>
        (body as { people: { username: string }[] }).people.some((p) => p.username === newcomer.username);
      if (suggested((await readOften(here, reader, '/api/explore')).body)) throw new Error('setup');
      await inject(elsewhere, friend, 'PATCH', `/api/users/${newcomer.username}/follow`, {});
      return suggested((await get(here, reader, '/api/explore')).body);
    },
  },
  {
    title: 'a description changed elsewhere shows on the profile',
    caches: ['authors'],
    async seen(here, elsewhere) {
      const [reader, author] = [await signIn(here.app), await signIn(here.app)];
      const url = `/api/users/${author.username}`;
      await readOften(here, reader, url);
      await inject(elsewhere, author, 'PATCH', '/api/users/updateProfile', { email: author.email, description: 'New' });
      return (await get(here, reader, url)).body.user.description === 'New';
    },
  },
  {
    title: 'a follow request made elsewhere shows in the badge here (issue 70)',
    caches: ['follow_requests'],
    async seen(here, elsewhere) {
      const [star, fan] = [await signIn(here.app), await signIn(here.app)];
      await inject(here, star, 'PATCH', '/api/users/updateProfile', { approveFollowers: true });
      const url = '/api/follow-requests/count';
      if ((await readOften(here, star, url)).body.count !== 0) throw new Error('setup');
      await inject(elsewhere, fan, 'PATCH', `/api/users/${star.username}/follow`);
      return (await get(here, star, url)).body.count === 1;
    },
  },
  {
    title: 'a follow and a new post made elsewhere reach the home feed here',
    caches: ['followees', 'post_pages', 'home_feed_index'],
    async seen(here, elsewhere) {
      const reader = await signIn(here.app);
      const followed = await signIn(here.app);
      const older = await createPost(here.app, followed);
      const url = '/api/posts?feed=following';
      if ((await readOften(here, reader, url)).body.length !== 0) throw new Error('setup');
      await inject(elsewhere, reader, 'PATCH', `/api/users/${followed.username}/follow`);
      const followedSeen = ids((await get(here, reader, url)).body).join() === older._id;
      await readOften(here, reader, url);
      const newer = await createPost(elsewhere.app, followed);
      return followedSeen && ids((await get(here, reader, url)).body).join() === [newer._id, older._id].join();
    },
  },
  {
    title: 'a session signed out elsewhere ends here',
    caches: ['sessions'],
    async seen(here, elsewhere) {
      const user = await signIn(here.app);
      if ((await readOften(here, user, '/api/auth/getLoggedUser')).status !== 200) throw new Error('setup');
      await inject(elsewhere, user, 'POST', '/api/auth/logout');
      return (await get(here, user, '/api/auth/getLoggedUser')).status === 401;
    },
  },
  {
    title: 'a domain blocked elsewhere is in the list here',
    caches: ['domain_blocks'],
    async seen(here, elsewhere) {
      const admin = await signIn(here.app);
      await makeAdmin(here, admin);
      await readOften(here, admin, '/api/admin/domains');
      const domain = `${randomUUID().slice(0, 8)}.example`;
      await inject(elsewhere, admin, 'POST', '/api/admin/domains', { domain, severity: 'silence' });
      return ((await get(here, admin, '/api/admin/domains')).body as { domain: string }[]).some(
        (b) => b.domain === domain,
      );
    },
  },
];
const CACHE_NAMES = [...new Set(CASES.flatMap((c) => c.caches))];

describe('the cache times by database', () => {
  it('a minute, since other connections’ commits are noticed, and on the bus as alone (its numbered messages tell)', () => {
    const times = (env: Record<string, string>) => {
      const config = loadConfig({ DATA_DIR: '/tmp/posts-config-test', JWT_SECRET: 'x'.repeat(40), ...env });
      return [config.postCacheMs, config.sessionCacheMs, config.homeFeedSyncMs];
    };
    const postgres = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' };
    expect(times({})).toEqual([60_000, 60_000, 60_000]);
    expect(times(postgres)).toEqual([60_000, 60_000, 60_000]);
    // The other instances' commits are not counted there: their events tell, numbered, and a missing
    // one makes the caches start over (instance/busSequence.ts), so no shorter time is needed.
    expect(times({ ...postgres, REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual([60_000, 60_000, 60_000]);
  });
});

describe.runIf(process.env.TEST_DB !== 'postgres')('SQLite: another process’s commits', () => {
  let here: TestApp;
  let elsewhere: TestApp;
  beforeAll(async () => {
    here = await createTestApp(LONG_CACHES);
    elsewhere = await createTestApp(LONG_CACHES, { sameDatabaseAs: here });
    await here.app.ctx.homeFeed.start();
    expect(here.app.ctx.homeFeed.state).toBe('ready');
  });
  afterAll(async () => {
    await elsewhere?.close();
    await here?.close();
  });

  it('counts only another connection’s commits, once each', async () => {
    const user = await signIn(here.app);
    const describe = (db: { kysely: TestApp['db']['kysely'] }, text: string) =>
      db.kysely.updateTable('users').set({ description: text }).where('id', '=', user.id).execute();
    const other = openDatabase(here.config.databaseUrl);
    try {
      const changed = here.db.committedElsewhere!;
      changed();
      await describe(here.db, 'mine');
      expect(changed()).toBe(false);
      await describe(other, 'theirs');
      expect(changed()).toBe(true);
      expect(changed()).toBe(false);
    } finally {
      await other.close();
    }
  });

  it.each(CASES.map((c) => [c.title, c] as const))('%s', async (_, c) => {
    expect(await c.seen(here, elsewhere)).toBe(true);
  });

  it('has a case for every cache, and for what starts over with them', () => {
    const covered = new Set(CASES.flatMap((c) => c.caches));
    expect(here.app.ctx.caches.names().filter((name) => !covered.has(name) && !UNCHANGING.includes(name))).toEqual([]);
  });

  // Each cache left out of `forgetEverything` in turn: some case of it must then miss the change.
  it.each(CACHE_NAMES)('without forgetting %s, a change goes unseen', async (name) => {
    const partial = await createTestApp(LONG_CACHES, { sameDatabaseAs: here });
    const registry = partial.app.ctx.caches;
    const everything = registry.forgetEverything.bind(registry);
    registry.forgetEverything = () => everything(name);
    try {
      await partial.app.ctx.homeFeed.start();
      const results = [];
      for (const c of CASES.filter((c) => c.caches.includes(name))) results.push(await c.seen(partial, elsewhere));
      expect(results).toContain(false);
    } finally {
      await partial.close();
    }
  });
});

describe('how often a request asks SQLite', () => {
  it('at most once per interval: a commit elsewhere is noticed at the first request after it', () => {
    let commits = 0;
    let seen = 0;
    let asked = 0;
    const committedElsewhere = () => {
      asked++;
      const changed = commits !== seen;
      seen = commits;
      return changed;
    };
    let forgotten = 0;
    const caches = { forgetEverything: () => forgotten++ };
    let now = 1000;
    const check = forgetOnOutsideWrites(committedElsewhere, caches, 5, () => now);

    check();
    expect([asked, forgotten]).toEqual([1, 0]);
    commits++;
    now += 4.9;
    check();
    expect([asked, forgotten]).toEqual([1, 0]); // within the interval: not asked, still kept
    now += 0.1;
    check();
    expect(asked).toBe(2);
    expect(forgotten).toBe(1);
    now += 5;
    check();
    expect([asked, forgotten]).toEqual([3, 1]); // asked again, nothing new
  });

  it('the default: a millisecond; 0 asks before every request', () => {
    const base = { DATA_DIR: '/tmp/posts-config-test', JWT_SECRET: 'x'.repeat(40) };
    expect(loadConfig(base).outsideWritesCheckMs).toBe(1);
    expect(loadConfig({ ...base, OUTSIDE_WRITES_CHECK_MS: '0' }).outsideWritesCheckMs).toBe(0);
  });

  it.runIf(process.env.TEST_DB !== 'postgres')('an app asks once per interval', async () => {
    const here = await createTestApp({ ...LONG_CACHES, OUTSIDE_WRITES_CHECK_MS: '60000' });
    const elsewhere = await createTestApp(LONG_CACHES, { sameDatabaseAs: here });
    try {
      const reader = await signIn(here.app);
      const author = await signIn(elsewhere.app);
      const post = await createPost(elsewhere.app, author, { message: 'before' });
      const url = `/api/posts/${post._id}`;
      expect((await readOften(here, reader, url)).body.message).toBe('before');
      const edited = await elsewhere.app.inject({
        method: 'PATCH',
        url: `${url}/manage`,
        headers: author.headers,
        payload: { post: { message: 'after' } },
      });
      expect(edited.statusCode).toBe(200);
      // Asked at the reader's first request; not again within the minute, so the kept post answers.
      expect((await get(here, reader, url)).body.message).toBe('before');
    } finally {
      await elsewhere.close();
      await here.close();
    }
  });
});
