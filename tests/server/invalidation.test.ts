/**
 * Two instances on one database: a change made through one reaches the other's caches through the
 * bus (Redis), within a second; alone (no Redis) each instance keeps its own caches for their time.
 * The caches' times are a minute here, so only the bus can make the other instance see a change.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Comment, Post } from '../../lib/types';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

const LONG_CACHES = { SESSION_CACHE_MS: '60000', HOME_FEED_SYNC_MS: '60000', POST_CACHE_MS: '60000' };

const getMe = (t: TestApp, user: SignedInUser) =>
  t.app.inject({ method: 'GET', url: '/api/auth/getLoggedUser', headers: user.headers });

const homeFeedIds = async (t: TestApp, user: SignedInUser) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/posts?feed=following', headers: user.headers });
  expect(res.statusCode).toBe(200);
  return (res.json() as Post[]).map((post) => post._id);
};

/** Checks `check` every 20 ms until it passes; fails when it still does not after `withinMs`. */
async function within(withinMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`not seen within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Both instances' home feed indexes loaded, so pages are walked in memory (and cached there). */
async function indexesReady(...apps: TestApp[]): Promise<void> {
  await within(10_000, async () => apps.every((t) => t.app.ctx.homeFeed.state === 'ready'));
}

describe.runIf(process.env.TEST_REDIS_URL)('with Redis, two instances', () => {
  const env = { ...LONG_CACHES, REDIS_URL: process.env.TEST_REDIS_URL! };
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    one = await createTestApp(env);
    two = await createTestApp(env, { sameDatabaseAs: one });
    await indexesReady(one, two);
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('a logout through one ends the session on the other within a second', async () => {
    const user = await signIn(one.app);
    expect((await getMe(two, user)).statusCode).toBe(200); // two has checked (and cached) the token
    const logout = await one.app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.headers });
    expect(logout.statusCode).toBe(200);
    await within(1_000, async () => (await getMe(two, user)).statusCode === 401);
  });

  it('a password change through one ends the other sessions on the other, and keeps its own', async () => {
    const user = await signIn(one.app);
    const stranger = await signIn(one.app); // another user: untouched
    const phone = { ...user, headers: { cookie: '' } };
    const login = await one.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: user.password },
    });
    phone.headers.cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    for (const who of [user, phone, stranger]) expect((await getMe(two, who)).statusCode).toBe(200);

    const change = await one.app.inject({
      method: 'PATCH',
      url: '/api/users/updateAccount',
      headers: user.headers,
      payload: { email: user.email, password: user.password, newPassword: 'another horse battery' },
    });
    expect(change.statusCode).toBe(200);
    await within(1_000, async () => (await getMe(two, phone)).statusCode === 401);
    expect((await getMe(two, user)).statusCode).toBe(200);
    expect((await getMe(two, stranger)).statusCode).toBe(200);
  });

  it('a rename through one is the name the other sees in the session within a second', async () => {
    const user = await signIn(one.app);
    const token = user.cookies.access_token;
    expect((await two.app.ctx.auth.authenticate(token))?.username).toBe(user.username);
    const renamed = `${user.username}_r`;
    const change = await one.app.inject({
      method: 'PATCH',
      url: '/api/users/updateAccount',
      headers: user.headers,
      payload: { email: user.email, password: user.password, username: renamed },
    });
    expect(change.statusCode).toBe(200);
    await within(1_000, async () => (await two.app.ctx.auth.authenticate(token))?.username === renamed);
  });

  it('a role changed with `npm run admin` (another process) is the role both see within a second', async () => {
    const user = await signIn(one.app);
    const token = user.cookies.access_token;
    for (const t of [one, two]) expect((await t.app.ctx.auth.authenticate(token))?.role).toBe('member');
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.resolve(import.meta.dirname, '../../server/cli/admin.ts'), 'grant', user.username],
      {
        env: { ...process.env, DATA_DIR: one.dataDir, DATABASE_URL: one.config.databaseUrl, REDIS_URL: env.REDIS_URL },
      },
    );
    await within(1_000, async () => {
      const roles = await Promise.all([one, two].map((t) => t.app.ctx.auth.authenticate(token)));
      return roles.every((seen) => seen?.role === 'admin');
    });
  });

  it("a follow and an unfollow through one change the reader's home feed on the other within a second", async () => {
    const [fan, star] = [await signIn(one.app), await signIn(one.app)];
    const post = await createPost(one.app, star);
    expect(await homeFeedIds(two, fan)).toEqual([]); // two now keeps fan's (empty) follow list
    const follow = (action: 'follow' | 'unfollow') =>
      one.app.inject({ method: 'PATCH', url: `/api/users/${star.username}/${action}`, headers: fan.headers });

    expect((await follow('follow')).statusCode).toBe(200);
    await within(1_000, async () => (await homeFeedIds(two, fan)).includes(post._id));
    expect((await follow('unfollow')).statusCode).toBe(200);
    await within(1_000, async () => !(await homeFeedIds(two, fan)).includes(post._id));
  });

  it('a mute and a block through one change both home feeds on the other within a second (issue 23)', async () => {
    const [fan, star] = [await signIn(one.app), await signIn(one.app)];
    const patch = (user: SignedInUser, action: string, of: SignedInUser) =>
      one.app.inject({ method: 'PATCH', url: `/api/users/${of.username}/${action}`, headers: user.headers });
    expect((await patch(fan, 'follow', star)).statusCode).toBe(200);
    expect((await patch(star, 'follow', fan)).statusCode).toBe(200);
    const [starPost, fanPost] = [await createPost(one.app, star), await createPost(one.app, fan)];
    await within(1_000, async () => (await homeFeedIds(two, fan)).includes(starPost._id));
    await within(1_000, async () => (await homeFeedIds(two, star)).includes(fanPost._id));

    expect((await patch(fan, 'mute', star)).statusCode).toBe(200);
    await within(1_000, async () => !(await homeFeedIds(two, fan)).includes(starPost._id));
    expect((await patch(fan, 'unmute', star)).statusCode).toBe(200);
    await within(1_000, async () => (await homeFeedIds(two, fan)).includes(starPost._id));
    // A block ends the follows both ways: the blocked person's cached list goes too.
    expect((await patch(fan, 'block', star)).statusCode).toBe(200);
    await within(1_000, async () => !(await homeFeedIds(two, fan)).includes(starPost._id));
    await within(1_000, async () => !(await homeFeedIds(two, star)).includes(fanPost._id));
  });

  it("a like, a comment, an edit, a rename, a block and a delete through one reach the other's cached posts and comments within a second", async () => {
    const [ann, bob] = [await signIn(one.app), await signIn(one.app)];
    const post = await createPost(one.app, bob, { message: 'before' });
    const read = async <T>(url: string): Promise<T> => {
      const res = await two.app.inject({ method: 'GET', url, headers: ann.headers });
      return (res.statusCode === 200 ? res.json() : null) as T;
    };
    const seen = async () => (await read<Post[]>('/api/posts?feed=all')).find((p) => p._id === post._id);
    const comments = () => read<Comment[] | null>(`/api/posts/${post._id}/comments`);
    const write = (user: SignedInUser, method: 'PATCH' | 'POST' | 'DELETE', url: string, payload?: object) =>
      one.app.inject({ method, url, headers: user.headers, payload });
    // Two reads (and caches) the post, its page and its comments.
    expect((await seen())?.likesCount).toBe(0);
    expect(await comments()).toEqual([]);

    expect((await write(ann, 'PATCH', `/api/posts/${post._id}/like`)).statusCode).toBe(200);
    await within(1_000, async () => (await seen())?.myReaction === 'like');
    expect((await seen())?.likesCount).toBe(1);
    const comment = await write(bob, 'POST', `/api/posts/${post._id}/comments`, { message: 'hello' });
    expect(comment.statusCode).toBe(201);
    await within(1_000, async () => (await seen())?.commentsCount === 1);
    expect((await comments())?.map((c) => c.message)).toEqual(['hello']);
    const edit = await write(bob, 'PATCH', `/api/posts/${post._id}/manage`, { post: { message: 'after' } });
    expect(edit.statusCode).toBe(200);
    await within(1_000, async () => (await seen())?.message === 'after');
    const renamed = `${bob.username}_r`;
    const rename = await write(bob, 'PATCH', '/api/users/updateAccount', {
      email: bob.email,
      password: bob.password,
      username: renamed,
    });
    expect(rename.statusCode).toBe(200);
    await within(1_000, async () => (await seen())?.creator === renamed);
    expect((await comments())?.map((c) => c.creator)).toEqual([renamed]);

    expect((await write(ann, 'PATCH', `/api/users/${renamed}/block`)).statusCode).toBe(200);
    await within(1_000, async () => (await seen()) === undefined);
    expect(await read(`/api/posts/${post._id}`)).toBeNull(); // 404
    expect((await write(ann, 'PATCH', `/api/users/${renamed}/unblock`)).statusCode).toBe(200);
    await within(1_000, async () => (await seen()) !== undefined);
    expect((await write(bob, 'DELETE', `/api/posts/${post._id}/manage`)).statusCode).toBe(200);
    await within(1_000, async () => (await seen()) === undefined);
  });

  it("a post made through one is in the followers' home feed on the other within a second", async () => {
    const [fan, star] = [await signIn(one.app), await signIn(one.app)];
    await one.app.inject({ method: 'PATCH', url: `/api/users/${star.username}/follow`, headers: fan.headers });
    await within(1_000, async () => (await homeFeedIds(two, fan)).length === 0);
    const post = await createPost(one.app, star);
    await within(1_000, async () => (await homeFeedIds(two, fan))[0] === post._id);
  });
});

describe('without Redis, two instances', () => {
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    one = await createTestApp(LONG_CACHES);
    two = await createTestApp(LONG_CACHES, { sameDatabaseAs: one });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('a logout ends the session at once where it was made; the other trusts its cache for its time', async () => {
    const user = await signIn(one.app);
    expect((await getMe(one, user)).statusCode).toBe(200);
    expect((await getMe(two, user)).statusCode).toBe(200);
    await one.app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.headers });
    expect((await getMe(one, user)).statusCode).toBe(401);
    // SESSION_CACHE_MS (documented): another instance sees it once its cached check expires.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await getMe(two, user)).statusCode).toBe(200);
  });
});
