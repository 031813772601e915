/**
 * Writes no event tells of (`server/cache/outsideWrites.ts`): on SQLite, what another process
 * commits (here: a second instance on the same file, without Redis, so its events stay its own)
 * makes every cache of this instance forget at its next request. Each cache has a case that fails
 * without its `forgetAll`: the caches keep things for a minute, so only the check makes the change
 * seen. PostgreSQL's counterpart, its LISTEN: postgresWrites.test.ts.
 */
import type { Comment, Post } from '../../lib/types';
import { loadConfig } from '../../server/config';
import { type ForgettingCaches, forgetOnOutsideWrites } from '../../server/cache/outsideWrites';
import { openDatabase } from '../../server/db/database';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

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

describe('the cache times by database', () => {
  it('a minute, since other connections’ commits are noticed; PostgreSQL on the bus: shorter', () => {
    const times = (env: Record<string, string>) => {
      const config = loadConfig({ DATA_DIR: '/tmp/posts-config-test', JWT_SECRET: 'x'.repeat(40), ...env });
      return [config.postCacheMs, config.sessionCacheMs, config.homeFeedSyncMs];
    };
    const postgres = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' };
    expect(times({})).toEqual([60_000, 60_000, 60_000]);
    expect(times(postgres)).toEqual([60_000, 60_000, 60_000]);
    // The other instances' commits are not counted there (their events tell): the times bound what none carried.
    expect(times({ ...postgres, REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual([5_000, 5_000, 1_000]);
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

  it('a post edited elsewhere, and a reaction made there', async () => {
    const author = await signIn(here.app);
    const post = await createPost(here.app, author, { message: 'before' });
    expect((await readOften(here, author, `/api/posts/${post._id}`)).body.message).toBe('before');
    const edit = await elsewhere.app.inject({
      method: 'PATCH',
      url: `/api/posts/${post._id}/manage`,
      headers: author.headers,
      payload: { post: { message: 'after' } },
    });
    expect(edit.statusCode).toBe(200);
    expect((await get(here, author, `/api/posts/${post._id}`)).body.message).toBe('after');

    expect((await readOften(here, author, '/api/posts?feed=all')).body[0].myReaction).toBe(null);
    const like = await elsewhere.app.inject({
      method: 'PATCH',
      url: `/api/posts/${post._id}/like`,
      headers: author.headers,
      payload: {},
    });
    expect(like.statusCode).toBe(200);
    for (const [seen] of (await readsAfter(here, author, '/api/posts?feed=all')) as Post[][])
      expect([seen._id, seen.myReaction, seen.likesCount]).toEqual([post._id, 'like', 1]);
  });

  it('a comment added elsewhere', async () => {
    const author = await signIn(here.app);
    const post = await createPost(here.app, author);
    const url = `/api/posts/${post._id}/comments`;
    expect((await readOften(here, author, url)).body).toEqual([]);
    const add = await elsewhere.app.inject({
      method: 'POST',
      url,
      headers: author.headers,
      payload: { message: 'hi' },
    });
    expect(add.statusCode).toBe(201);
    expect(((await get(here, author, url)).body as Comment[]).map((c) => c.message)).toEqual(['hi']);
  });

  it('a block made elsewhere hides the blocked person’s posts here', async () => {
    const reader = await signIn(here.app);
    const other = await signIn(here.app);
    const post = await createPost(here.app, other);
    expect(ids((await readOften(here, reader, '/api/posts?feed=all')).body)).toContain(post._id);
    const block = await elsewhere.app.inject({
      method: 'PATCH',
      url: `/api/users/${other.username}/block`,
      headers: reader.headers,
    });
    expect(block.statusCode).toBe(200);
    for (const page of await readsAfter(here, reader, '/api/posts?feed=all')) expect(ids(page)).not.toContain(post._id);
  });

  it('a follow and a new post made elsewhere reach the home feed here', async () => {
    const reader = await signIn(here.app);
    const followed = await signIn(here.app);
    const older = await createPost(here.app, followed);
    expect((await readOften(here, reader, '/api/posts?feed=following')).body).toEqual([]);
    const follow = await elsewhere.app.inject({
      method: 'PATCH',
      url: `/api/users/${followed.username}/follow`,
      headers: reader.headers,
    });
    expect(follow.statusCode).toBe(200);
    expect(ids((await get(here, reader, '/api/posts?feed=following')).body)).toEqual([older._id]);

    await readOften(here, reader, '/api/posts?feed=following');
    const newer = await createPost(elsewhere.app, followed);
    expect(ids((await get(here, reader, '/api/posts?feed=following')).body)).toEqual([newer._id, older._id]);
  });

  it('a session signed out elsewhere ends here', async () => {
    const user = await signIn(here.app);
    expect((await readOften(here, user, '/api/auth/getLoggedUser')).status).toBe(200);
    const out = await elsewhere.app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.headers });
    expect(out.statusCode).toBe(200);
    expect((await get(here, user, '/api/auth/getLoggedUser')).status).toBe(401);
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
    const forget = { forgetAll: () => forgotten++ };
    const caches = {
      ...{ posts: forget, comments: forget, hiddenPeople: forget, commentsByPerson: forget },
      ...{ sessions: forget, authors: forget },
      homeFeed: { writtenElsewhere: () => forgotten++ },
      domainBlocks: { forget: () => forgotten++ },
    } as unknown as ForgettingCaches;
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
    expect(forgotten).toBe(8); // every cache once
    now += 5;
    check();
    expect([asked, forgotten]).toEqual([3, 8]); // asked again, nothing new
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
