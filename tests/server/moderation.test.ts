/** Issue 23, part 2: reports, the admin queue, suspensions, the admin log. */
import type { AdminLogEntry, Comment, Post, Report } from '../../lib/types';
import { REPORT_NOTE_MAX } from '../../lib/limits';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, cookieHeader, createTestApp, makeAdmin, signIn } from './helpers';

let t: TestApp;
let admin: SignedInUser;
let alice: SignedInUser;
let bob: SignedInUser;
beforeAll(async () => {
  // Sessions stay cached for a minute: only the revocation can end a suspended user's session.
  t = await createTestApp({ SESSION_CACHE_MS: '60000', RATE_LIMIT_REPORTS_PER_USER: '1000' });
  admin = await signIn(t.app); // the first account is the admin
  alice = await signIn(t.app);
  bob = await signIn(t.app);
});
afterAll(async () => {
  await t.close();
});

const inject = (
  user: SignedInUser | null,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
  app = t.app,
) => app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });

const report = (user: SignedInUser, payload: object) => inject(user, 'POST', '/api/reports', payload);
const queue = async (status: 'open' | 'resolved' = 'open') => {
  const res = await inject(admin, 'GET', `/api/admin/reports?status=${status}&limit=40`);
  expect(res.statusCode).toBe(200);
  return res.json() as Report[];
};
const resolve = (id: string, action: string, note?: string) =>
  inject(admin, 'POST', `/api/admin/reports/${id}/resolve`, { action, ...(note ? { note } : {}) });
const getMe = (user: SignedInUser) => inject(user, 'GET', '/api/auth/getLoggedUser');
const login = (user: SignedInUser, password = user.password) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } });

async function addComment(user: SignedInUser, postId: string, message = 'A comment'): Promise<Comment> {
  const res = await inject(user, 'POST', `/api/posts/${postId}/comments`, { message });
  expect(res.statusCode).toBe(201);
  return res.json();
}

describe('POST /api/reports', () => {
  it('reports a post once: 201 with the id, a second open report of the same target answers 409', async () => {
    const post = await createPost(t.app, bob);
    const first = await report(alice, { targetType: 'post', targetId: post._id, reason: 'spam', note: ' buy now ' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ id: expect.any(String) });
    const again = await report(alice, { targetType: 'post', targetId: post._id, reason: 'abuse' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('AlreadyReported');
    const row = await t.db.kysely
      .selectFrom('reports')
      .selectAll()
      .where('id', '=', first.json().id)
      .executeTakeFirst();
    expect(row).toMatchObject({ reporter_id: alice.id, target_user_id: bob.id, note: 'buy now', status: 'open' });
  });

  it('reports a comment by its commentId and a user by username', async () => {
    const post = await createPost(t.app, alice);
    const comment = await addComment(bob, post._id);
    const onComment = await report(alice, { targetType: 'comment', targetId: comment.commentId, reason: 'abuse' });
    expect(onComment.statusCode).toBe(201);
    const onUser = await report(alice, { targetType: 'user', targetId: bob.username, reason: 'other' });
    expect(onUser.statusCode).toBe(201);
    const row = await t.db.kysely
      .selectFrom('reports')
      .selectAll()
      .where('id', '=', onUser.json().id)
      .executeTakeFirst();
    expect(row).toMatchObject({ target_type: 'user', target_id: bob.id, target_user_id: bob.id });
  });

  it('answers 404 for a target that does not exist', async () => {
    const missing = '0190a6f0-0000-7000-8000-000000000000';
    for (const [targetType, targetId] of [
      ['post', missing],
      ['comment', missing],
      ['post', 'not-an-id'],
      ['user', 'nobody_here'],
    ]) {
      const res = await report(alice, { targetType, targetId, reason: 'spam' });
      expect(res.statusCode, `${targetType} ${targetId}`).toBe(404);
    }
  });

  it("answers a blocked person's report of the blocker, their post or a comment under it as for a missing one (issue 36)", async () => {
    const [blocker, blocked, third] = [await signIn(t.app), await signIn(t.app), await signIn(t.app)];
    const post = await createPost(t.app, blocker);
    const theirComment = await addComment(blocker, post._id);
    const othersComment = await addComment(third, post._id);
    const block = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${blocked.username}/block`,
      headers: blocker.headers,
    });
    expect(block.statusCode).toBe(200);
    for (const [targetType, targetId, message] of [
      ['post', post._id, 'Post not found'],
      ['comment', theirComment.commentId, 'Comment not found'],
      ['comment', othersComment.commentId, 'Comment not found'],
      ['user', blocker.username, 'User not found'],
    ]) {
      const res = await report(blocked, { targetType, targetId, reason: 'abuse' });
      expect(res.statusCode, `${targetType} ${targetId}`).toBe(404);
      expect(res.json().message).toBe(message);
    }
    // The blocker still reports the person they blocked.
    expect(
      (await report(blocker, { targetType: 'user', targetId: blocked.username, reason: 'abuse' })).statusCode,
    ).toBe(201);
  });

  it("refuses one's own content and oneself (400)", async () => {
    const post = await createPost(t.app, alice);
    const comment = await addComment(alice, post._id);
    for (const [targetType, targetId] of [
      ['post', post._id],
      ['comment', comment.commentId],
      ['user', alice.username],
    ]) {
      const res = await report(alice, { targetType, targetId, reason: 'spam' });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('CannotReportOwn');
    }
  });

  it('validates the type, the reason and the note, and needs a session', async () => {
    const post = await createPost(t.app, bob);
    const base = { targetType: 'post', targetId: post._id, reason: 'spam' };
    expect((await report(alice, { ...base, targetType: 'photo' })).statusCode).toBe(400);
    expect((await report(alice, { ...base, reason: 'boring' })).statusCode).toBe(400);
    expect((await report(alice, { targetType: 'post', reason: 'spam' })).statusCode).toBe(400);
    const long = await report(alice, { ...base, note: 'x'.repeat(REPORT_NOTE_MAX + 1) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(`The note must be at most ${REPORT_NOTE_MAX} characters`);
    expect((await report(alice, { ...base, note: 'bad\u0000note' })).statusCode).toBe(400);
    expect((await inject(null, 'POST', '/api/reports', base)).statusCode).toBe(401);
    expect(await t.db.kysely.selectFrom('reports').select('id').where('target_id', '=', post._id).execute()).toEqual(
      [],
    );
  });

  it('is rate limited per user', async () => {
    const limited = await createTestApp({ RATE_LIMIT_REPORTS_PER_USER: '2' });
    try {
      await signIn(limited.app);
      const [one, two] = [await signIn(limited.app), await signIn(limited.app)];
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const post = await createPost(limited.app, two);
        const res = await inject(
          one,
          'POST',
          '/api/reports',
          { targetType: 'post', targetId: post._id, reason: 'spam' },
          limited.app,
        );
        statuses.push(res.statusCode);
        if (res.statusCode === 429) expect(res.headers['retry-after']).toBeDefined();
      }
      expect(statuses).toEqual([201, 201, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('the admin queue', () => {
  it('is for admins only (403, 401 without a session)', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/reports'],
      ['GET', '/api/admin/log'],
      ['GET', `/api/admin/users/${bob.username}`],
      ['POST', `/api/admin/users/${bob.username}/suspend`],
      ['POST', `/api/admin/users/${bob.username}/unsuspend`],
      ['POST', '/api/admin/reports/0190a6f0-0000-7000-8000-000000000000/resolve'],
    ] as const) {
      const body = method === 'POST' ? { action: 'dismiss' } : undefined;
      expect((await inject(alice, method, url, body)).statusCode, url).toBe(403);
      expect((await inject(null, method, url, body)).statusCode, url).toBe(401);
    }
  });

  it('lists open reports with a preview of each target and the note, newest first', async () => {
    const post = await createPost(t.app, bob, { message: 'Reported post' });
    const { id } = (
      await report(alice, { targetType: 'post', targetId: post._id, reason: 'illegal', note: 'see' })
    ).json();
    const open = await queue();
    expect(open[0]).toMatchObject({
      id,
      targetType: 'post',
      targetId: post._id,
      reason: 'illegal',
      note: 'see',
      status: 'open',
      reporter: alice.username,
      resolution: null,
      target: { type: 'post', _id: post._id, message: 'Reported post', image: post.image, creator: bob.username },
    });
    const resolved = await queue('resolved');
    expect(resolved.find((r) => r.id === id)).toBeUndefined();
    expect((await inject(admin, 'GET', '/api/admin/reports?status=closed')).statusCode).toBe(400);
  });

  it('dismissing resolves every open report on the target, once; the log has it', async () => {
    const post = await createPost(t.app, bob);
    const first = (await report(alice, { targetType: 'post', targetId: post._id, reason: 'spam' })).json().id;
    const carol = await signIn(t.app);
    const second = (await report(carol, { targetType: 'post', targetId: post._id, reason: 'abuse' })).json().id;
    const res = await resolve(first, 'dismiss', 'fine by the rules');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: first,
      status: 'resolved',
      resolution: 'dismiss',
      resolvedBy: admin.username,
    });
    const resolved = await queue('resolved');
    expect(resolved.find((r) => r.id === second)).toMatchObject({ status: 'resolved', resolution: 'dismiss' });
    expect((await resolve(second, 'dismiss')).statusCode).toBe(409);
    // The post stays, and the same reporter may report it again now.
    expect((await inject(alice, 'GET', `/api/posts/${post._id}`)).statusCode).toBe(200);
    expect((await report(alice, { targetType: 'post', targetId: post._id, reason: 'spam' })).statusCode).toBe(201);
    const log = (await inject(admin, 'GET', '/api/admin/log')).json() as AdminLogEntry[];
    expect(log[0]).toMatchObject({
      admin: admin.username,
      action: 'dismiss',
      targetType: 'post',
      targetId: post._id,
      note: 'fine by the rules',
      createdAt: expect.any(String),
    });
  });

  it('removeContent deletes a post through the posts service (counters follow)', async () => {
    const post = await createPost(t.app, bob);
    const before = await t.db.kysely
      .selectFrom('users')
      .select('posts_count')
      .where('id', '=', bob.id)
      .executeTakeFirstOrThrow();
    const { id } = (await report(alice, { targetType: 'post', targetId: post._id, reason: 'spam' })).json();
    const res = await resolve(id, 'removeContent');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ resolution: 'removeContent', target: null });
    expect((await inject(alice, 'GET', `/api/posts/${post._id}`)).statusCode).toBe(404);
    const after = await t.db.kysely
      .selectFrom('users')
      .select('posts_count')
      .where('id', '=', bob.id)
      .executeTakeFirstOrThrow();
    expect(Number(after.posts_count)).toBe(Number(before.posts_count) - 1);
    const log = (await inject(admin, 'GET', '/api/admin/log')).json() as AdminLogEntry[];
    expect(log[0]).toMatchObject({ action: 'removeContent', targetId: post._id, target: post.message });
  });

  it('removeContent deletes a comment; on a user it answers 400 and changes nothing', async () => {
    const post = await createPost(t.app, alice);
    const comment = await addComment(bob, post._id, 'rude words');
    const onComment = (
      await report(alice, { targetType: 'comment', targetId: comment.commentId, reason: 'abuse' })
    ).json();
    expect((await resolve(onComment.id, 'removeContent')).statusCode).toBe(200);
    const comments = (await inject(alice, 'GET', `/api/posts/${post._id}/comments`)).json() as Comment[];
    expect(comments.map((c) => c.commentId)).not.toContain(comment.commentId);

    const dave = await signIn(t.app);
    const onUser = (await report(alice, { targetType: 'user', targetId: dave.username, reason: 'spam' })).json();
    const res = await resolve(onUser.id, 'removeContent');
    expect(res.statusCode).toBe(400);
    expect((await queue()).find((r) => r.id === onUser.id)).toMatchObject({
      status: 'open',
      target: { type: 'user', username: dave.username, suspended: false },
    });
  });

  it('answers 404 for an unknown report and 400 for an unknown action', async () => {
    expect((await resolve('0190a6f0-0000-7000-8000-000000000000', 'dismiss')).statusCode).toBe(404);
    expect((await resolve('nope', 'dismiss')).statusCode).toBe(404);
    const post = await createPost(t.app, bob);
    const { id } = (await report(alice, { targetType: 'post', targetId: post._id, reason: 'spam' })).json();
    expect((await resolve(id, 'ban')).statusCode).toBe(400);
  });
});

describe('suspensions', () => {
  it('suspendUser from the queue suspends the author: the session stops at once, sign-in is refused', async () => {
    const eve = await signIn(t.app);
    const post = await createPost(t.app, eve);
    expect((await getMe(eve)).statusCode).toBe(200); // cached for a minute
    const { id } = (await report(alice, { targetType: 'post', targetId: post._id, reason: 'spam' })).json();
    const res = await resolve(id, 'suspendUser', 'spammer');
    expect(res.statusCode).toBe(200);
    expect((await getMe(eve)).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: cookieHeader(eve.cookies) },
    });
    expect(refresh.statusCode).toBe(401);
    // The session ended because of the suspension, and says so (issue 35), on refresh and on the lookup.
    expect(refresh.json()).toMatchObject({ message: 'This account is suspended', code: 'AccountSuspended' });
    expect((await getMe(eve)).json()).toMatchObject({ message: 'This account is suspended' });
    const signInAgain = await login(eve);
    expect(signInAgain.statusCode).toBe(401);
    expect(signInAgain.json()).toMatchObject({ message: 'This account is suspended', code: 'AccountSuspended' });
    // A wrong password learns nothing of the account's state.
    const wrong = await login(eve, 'wrong password here');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('InvalidCredentials');
    const log = (await inject(admin, 'GET', '/api/admin/log')).json() as AdminLogEntry[];
    expect(log[0]).toMatchObject({ action: 'suspendUser', targetType: 'user', target: eve.username, note: 'spammer' });
  });

  it('suspend and unsuspend by username: 409 when already so, then sign-in works again', async () => {
    const frank = await signIn(t.app);
    const res = await inject(admin, 'POST', `/api/admin/users/${frank.username}/suspend`, { note: 'cooling off' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ username: frank.username, suspendedAt: expect.any(String) });
    expect((await getMe(frank)).statusCode).toBe(401);
    expect((await inject(admin, 'POST', `/api/admin/users/${frank.username}/suspend`)).statusCode).toBe(409);
    const lookup = await inject(admin, 'GET', `/api/admin/users/${frank.username}`);
    expect(lookup.json()).toMatchObject({ role: 'member', suspendedAt: expect.any(String) });

    const back = await inject(admin, 'POST', `/api/admin/users/${frank.username}/unsuspend`);
    expect(back.statusCode).toBe(200);
    expect(back.json().suspendedAt).toBeNull();
    expect((await inject(admin, 'POST', `/api/admin/users/${frank.username}/unsuspend`)).statusCode).toBe(409);
    expect((await login(frank)).statusCode).toBe(200);
    const log = (await inject(admin, 'GET', '/api/admin/log?limit=2')).json() as AdminLogEntry[];
    expect(log.map((e) => e.action)).toEqual(['unsuspendUser', 'suspendUser']);
  });

  it('an admin cannot suspend themselves or another admin; unknown users are 404', async () => {
    const self = await inject(admin, 'POST', `/api/admin/users/${admin.username}/suspend`);
    expect(self.statusCode).toBe(403);
    const other = await signIn(t.app);
    await makeAdmin(t, other);
    expect((await inject(admin, 'POST', `/api/admin/users/${other.username}/suspend`)).statusCode).toBe(403);
    expect((await inject(admin, 'POST', '/api/admin/users/nobody_here/suspend')).statusCode).toBe(404);
    expect((await getMe(admin)).statusCode).toBe(200);
  });

  it('the log is keyset paged', async () => {
    const res = await inject(admin, 'GET', '/api/admin/log?limit=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers.link).toMatch(/rel="next"/);
    const next = /<([^>]+)>/.exec(res.headers.link as string)![1];
    const page2 = (await inject(admin, 'GET', next)).json() as AdminLogEntry[];
    expect(page2).toHaveLength(1);
    expect(page2[0].id < (res.json() as AdminLogEntry[])[0].id).toBe(true);
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('with Redis, two instances', () => {
  const env = { SESSION_CACHE_MS: '60000', POST_CACHE_MS: '60000', REDIS_URL: process.env.TEST_REDIS_URL! };
  let one: TestApp;
  let two: TestApp;
  let boss: SignedInUser; // the first account of this database: an admin
  beforeAll(async () => {
    one = await createTestApp(env);
    two = await createTestApp(env, { sameDatabaseAs: one });
    boss = await signIn(one.app);
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it("a suspension through one ends the user's session on the other within a second", async () => {
    const user = await signIn(one.app);
    const me = () => two.app.inject({ method: 'GET', url: '/api/auth/getLoggedUser', headers: user.headers });
    expect((await me()).statusCode).toBe(200); // two has checked (and cached) the token
    const res = await one.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.username}/suspend`,
      headers: boss.headers,
    });
    expect(res.statusCode).toBe(200);
    const deadline = Date.now() + 1_000;
    while ((await me()).statusCode !== 401) {
      if (Date.now() > deadline) throw new Error('still signed in on the other instance');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it("a suspension and its end through one hide and show the user's posts in the other's cached lists within a second", async () => {
    const [reader, author] = [await signIn(one.app), await signIn(one.app)];
    const post = await createPost(one.app, author);
    const shown = async () => {
      const res = await two.app.inject({ method: 'GET', url: '/api/posts?feed=all', headers: reader.headers });
      return (res.json() as Post[]).some((p) => p._id === post._id);
    };
    expect(await shown()).toBe(true); // two has cached the page and the post
    const admin = (action: 'suspend' | 'unsuspend') =>
      one.app.inject({ method: 'POST', url: `/api/admin/users/${author.username}/${action}`, headers: boss.headers });
    const until = async (want: boolean) => {
      const deadline = Date.now() + 1_000;
      while ((await shown()) !== want) {
        if (Date.now() > deadline)
          throw new Error(`the post is ${want ? 'still hidden' : 'still shown'} on the other instance`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    expect((await admin('suspend')).statusCode).toBe(200);
    await until(false);
    expect((await admin('unsuspend')).statusCode).toBe(200);
    await until(true);
  });
});
