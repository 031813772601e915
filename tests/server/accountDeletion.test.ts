/** DELETE /api/users/me: the account and everything it made go; other rows' counters stay right; the name is held. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SECURITY_TEXTS } from '../../lib/securityTexts';
import { TEXTS } from '../../lib/texts';
import { findCounterDrift } from '../../server/db/counters';
import { commentOn, follow, reactToComment, reactToPost } from './activity';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn, totpCode } from './helpers';
import { uploadImage } from './multipart';

let t: TestApp;
beforeAll(async () => {
  // Cached sessions must still end at once.
  t = await createTestApp({ SESSION_CACHE_MS: '60000' });
});
afterAll(() => t.close());

const remove = (user: SignedInUser, payload?: object) =>
  t.app.inject({ method: 'DELETE', url: '/api/users/me', headers: user.headers, ...(payload ? { payload } : {}) });
const get = (user: SignedInUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });
const rowsOf = async (userId: string) => {
  const k = t.db.kysely;
  const count = async (q: Promise<unknown[]>) => (await q).length;
  return {
    users: await count(k.selectFrom('users').select('id').where('id', '=', userId).execute()),
    sessions: await count(k.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()),
    posts: await count(k.selectFrom('posts').select('id').where('creator_id', '=', userId).execute()),
    comments: await count(k.selectFrom('comments').select('id').where('user_id', '=', userId).execute()),
    postReactions: await count(
      k.selectFrom('post_reactions').select('post_id').where('user_id', '=', userId).execute(),
    ),
    commentReactions: await count(
      k.selectFrom('comment_reactions').select('comment_id').where('user_id', '=', userId).execute(),
    ),
    follows: await count(
      k
        .selectFrom('follows')
        .select('id')
        .where((eb) => eb.or([eb('follower_id', '=', userId), eb('followee_id', '=', userId)]))
        .execute(),
    ),
    media: await count(k.selectFrom('media').select('id').where('owner_id', '=', userId).execute()),
  };
};

describe('DELETE /api/users/me', () => {
  it('needs the right password (400), and a session (401)', async () => {
    const ann = await signIn(t.app);
    const noBody = await remove(ann);
    expect(noBody.statusCode).toBe(400);
    expect(noBody.json()).toEqual({ message: 'body must be object', code: 'ValidationError' });
    for (const payload of [{}, { password: 'wrong password' }]) {
      const res = await remove(ann, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: TEXTS.invalidPassword, code: 'InvalidPassword' });
    }
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/users/me', payload: { password: 'x' } })).statusCode,
    ).toBe(401);
    expect((await rowsOf(ann.id)).users).toBe(1);
  });

  it('with two-factor sign-in on, needs a code too', async () => {
    const ann = await signIn(t.app);
    const { secret } = (
      await t.app.inject({ method: 'POST', url: '/api/auth/2fa/setup', headers: ann.headers })
    ).json();
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/2fa/enable',
      headers: ann.headers,
      payload: { code: totpCode(secret, -1) },
    });

    const noCode = await remove(ann, { password: ann.password });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().code).toBe('TwoFactorCodeRequired');
    const wrong = await remove(ann, { password: ann.password, code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('InvalidTwoFactorCode');
    expect((await rowsOf(ann.id)).users).toBe(1);

    expect((await remove(ann, { password: ann.password, code: totpCode(secret) })).statusCode).toBe(200);
    expect((await rowsOf(ann.id)).users).toBe(0);
    expect(
      await t.db.kysely.selectFrom('two_factor').select('user_id').where('user_id', '=', ann.id).execute(),
    ).toEqual([]);
  });

  it("removes the account's rows and files; every counter it touched is right afterwards", async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    const cid = await signIn(t.app);
    // A second device of Ann's, cached by this process.
    const annPost = await createPost(t.app, ann, { message: 'Ann 1' });
    await createPost(t.app, ann, { message: 'Ann 2' });
    const avatar = await uploadImage(t.app, ann, 'avatar');
    await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateProfile',
      headers: ann.headers,
      payload: { avatar: avatar.secure_url },
    });
    const bobPost = await createPost(t.app, bob, { message: 'Bob 1' });
    const cidPost = await createPost(t.app, cid, { message: 'Cid 1' });

    // Ann on other people's things...
    await reactToPost(t.app, ann, bobPost._id, 'like');
    await reactToPost(t.app, ann, cidPost._id, 'dislike');
    await commentOn(t.app, ann, bobPost._id, 'Ann on Bob 1');
    await commentOn(t.app, ann, bobPost._id, 'Ann on Bob 2');
    const bobsComment = await commentOn(t.app, bob, bobPost._id, 'Bob on Bob');
    const cidsComment = await commentOn(t.app, cid, cidPost._id, 'Cid on Cid');
    await reactToComment(t.app, ann, bobPost._id, bobsComment, 'like');
    await reactToComment(t.app, ann, cidPost._id, cidsComment, 'dislike');
    await follow(t.app, ann, bob.username);
    await follow(t.app, ann, cid.username);
    // ...and other people on Ann's.
    await follow(t.app, bob, ann.username);
    await reactToPost(t.app, bob, annPost._id, 'like');
    const onAnn = await commentOn(t.app, cid, annPost._id, 'Cid on Ann');
    await reactToComment(t.app, bob, annPost._id, onAnn, 'like');
    // Bob's home feed has Ann's posts (and is cached in this process).
    expect(
      ((await get(bob, '/api/posts?feed=following')).json() as { creator: string }[]).map((p) => p.creator),
    ).toContain(ann.username);
    expect((await get(ann, '/api/auth/getLoggedUser')).statusCode).toBe(200);
    const mediaKeys = (
      await t.db.kysely.selectFrom('media').select('variants').where('owner_id', '=', ann.id).execute()
    ).flatMap((row) => (JSON.parse(row.variants) as { key: string }[]).map((v) => v.key));
    expect(mediaKeys.length).toBeGreaterThanOrEqual(3);
    for (const key of mediaKeys) expect(existsSync(path.join(t.config.mediaDir, key))).toBe(true);

    const res = await remove(ann, { password: ann.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(
      res.cookies
        .filter((c) => c.value === '')
        .map((c) => c.name)
        .sort(),
    ).toEqual(['access_token', 'has_session', 'refresh_token']);

    // Gone: the session at once, the rows, the files.
    expect((await get(ann, '/api/auth/getLoggedUser')).statusCode).toBe(401);
    expect(await rowsOf(ann.id)).toEqual({
      users: 0,
      sessions: 0,
      posts: 0,
      comments: 0,
      postReactions: 0,
      commentReactions: 0,
      follows: 0,
      media: 0,
    });
    for (const key of mediaKeys) expect(existsSync(path.join(t.config.mediaDir, key))).toBe(false);
    expect((await get(bob, `/api/posts/${annPost._id}`)).statusCode).toBe(404);
    expect((await get(bob, `/api/users/${ann.username}`)).statusCode).toBe(404);

    // Counters: none differs from its rows (what `npm run check:counters` checks), and by name.
    expect(await findCounterDrift(t.db.kysely)).toEqual([]);
    const bobAfter = (await get(bob, `/api/users/${bob.username}`)).json().user;
    expect(bobAfter).toMatchObject({ followersCount: 0, followingCount: 0, postsCount: 1 });
    expect((await get(cid, `/api/users/${cid.username}`)).json().user).toMatchObject({ followersCount: 0 });
    const bobPostAfter = (await get(bob, `/api/posts/${bobPost._id}`)).json();
    expect(bobPostAfter).toMatchObject({ likesCount: 0, commentsCount: 1 });
    expect(bobPostAfter.comments).toEqual([expect.objectContaining({ commentId: bobsComment, likesCount: 0 })]);
    const cidPostAfter = (await get(cid, `/api/posts/${cidPost._id}`)).json();
    expect(cidPostAfter).toMatchObject({ dislikesCount: 0, commentsCount: 1 });
    expect(cidPostAfter.comments).toEqual([expect.objectContaining({ commentId: cidsComment, dislikesCount: 0 })]);

    // Bob's home feed (its in-memory index and follow list) no longer has Ann.
    const feed = (await get(bob, '/api/posts?feed=following')).json() as { creator: string }[];
    expect(feed.map((p) => p.creator)).not.toContain(ann.username);
    expect((await get(bob, '/api/posts?feed=all')).json().map((p: { _id: string }) => p._id)).not.toContain(
      annPost._id,
    );
  });

  it('holds the username for 30 days, in any case; the email is free at once', async () => {
    const ann = await signIn(t.app);
    expect((await remove(ann, { password: ann.password })).statusCode).toBe(200);
    const signup = (username: string, email: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { username, email, password: 'password123' } });

    for (const name of [ann.username, ann.username.toUpperCase()]) {
      const res = await signup(name, `${Math.random().toString(36).slice(2)}@example.com`);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: SECURITY_TEXTS.usernameRetired, code: 'UsernameRetired' });
    }
    // Nor can someone rename to it.
    const bob = await signIn(t.app);
    const rename = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateAccount',
      headers: bob.headers,
      payload: { username: ann.username, password: bob.password },
    });
    expect(rename.statusCode).toBe(409);
    expect(rename.json().code).toBe('UsernameRetired');

    const held = await t.db.kysely
      .selectFrom('retired_usernames')
      .selectAll()
      .where('username_lower', '=', ann.username.toLowerCase())
      .executeTakeFirstOrThrow();
    const days = (Date.parse(held.retired_until) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    expect((await signup('someone_new', ann.email)).statusCode).toBe(201);
    // After 30 days the name is free again.
    await t.db.kysely
      .updateTable('retired_usernames')
      .set({ retired_until: new Date(Date.now() - 1000).toISOString() })
      .where('username_lower', '=', ann.username.toLowerCase())
      .execute();
    expect((await signup(ann.username, 'later@example.com')).statusCode).toBe(201);
    // The next deletion drops names whose time is up.
    const bobGone = await remove(bob, { password: bob.password });
    expect(bobGone.statusCode).toBe(200);
    const held2 = await t.db.kysely.selectFrom('retired_usernames').select('username_lower').execute();
    expect(held2.map((r) => r.username_lower)).toContain(bob.username.toLowerCase());
    expect(held2.map((r) => r.username_lower)).not.toContain(ann.username.toLowerCase());
  });

  it('the same deletion sent twice at once: one answers 200, the other 401 or 404, counters right', async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    await follow(t.app, ann, bob.username);
    await reactToPost(t.app, ann, (await createPost(t.app, bob))._id, 'like');
    const answers = await Promise.all([
      remove(ann, { password: ann.password }),
      remove(ann, { password: ann.password }),
    ]);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses[0]).toBe(200);
    expect([401, 404]).toContain(statuses[1]);
    expect(await findCounterDrift(t.db.kysely)).toEqual([]);
  });
});
