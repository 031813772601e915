/** Issue 68, items 29 and 30: who likes a post (`GET /api/posts/{id}/likers`), and Follow in people lists. */
import type { PersonResult } from '../../lib/types';
import { createPost, walkPages } from './factories';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const inject = (user: SignedInUser | null, method: 'GET' | 'PATCH' | 'POST', url: string) =>
  t.app.inject({ method, url, headers: user?.headers ?? {} });
const like = async (user: SignedInUser, postId: string) =>
  expect((await inject(user, 'PATCH', `/api/posts/${postId}/like`)).statusCode).toBe(200);
/** Each like's time set apart, so "newest like first" does not hang on the clock's resolution. */
const likedAt = (user: SignedInUser, postId: string, iso: string) =>
  t.db.kysely
    .updateTable('post_reactions')
    .set({ created_at: iso })
    .where('post_id', '=', postId)
    .where('user_id', '=', user.id)
    .execute();
const names = (people: PersonResult[]) => people.map((p) => p.username);

describe('GET /api/posts/{id}/likers', () => {
  it('lists the likers newest like first, paged with Link, each with followedByMe', async () => {
    const author = await signIn(t.app);
    const post = await createPost(t.app, author);
    const likers: SignedInUser[] = [];
    for (let i = 0; i < 5; i += 1) {
      const u = await signIn(t.app);
      await like(u, post._id);
      likers.push(u);
    }
    // Likes in the order 2, 0, 4, 1, 3 (oldest first).
    const order = [2, 0, 4, 1, 3];
    for (const [at, i] of order.entries()) await likedAt(likers[i], post._id, `2026-01-0${at + 1}T00:00:00.000Z`);
    // A dislike is no like.
    const disliker = await signIn(t.app);
    await inject(disliker, 'PATCH', `/api/posts/${post._id}/dislike`);
    await inject(author, 'PATCH', `/api/users/${likers[4].username}/follow`);

    const first = await inject(author, 'GET', `/api/posts/${post._id}/likers?limit=2`);
    expect(first.statusCode).toBe(200);
    expect(first.headers.link).toMatch(/rel="next"/);
    const { items, pages } = await walkPages<PersonResult>(t.app, author, `/api/posts/${post._id}/likers?limit=2`);
    expect(pages).toBe(3);
    expect(names(items)).toEqual([...order].reverse().map((i) => likers[i].username));
    expect(items.find((p) => p.username === likers[4].username)).toMatchObject({
      _id: likers[4].id,
      avatar: null,
      followedByMe: true,
    });
    expect(items.filter((p) => p.followedByMe)).toHaveLength(1);
    expect(Object.keys(items[0]).sort()).toEqual(['_id', 'avatar', 'description', 'followedByMe', 'username']);
  });

  it('needs a session, answers 404 for an unknown post and 400 for a bad cursor', async () => {
    const ann = await signIn(t.app);
    const post = await createPost(t.app, ann);
    expect((await inject(null, 'GET', `/api/posts/${post._id}/likers`)).statusCode).toBe(401);
    const unknown = await inject(ann, 'GET', '/api/posts/0190e9b4-0000-7000-8000-000000000000/likers');
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'PostNotFound']);
    expect((await inject(ann, 'GET', '/api/posts/not-an-id/likers')).statusCode).toBe(404);
    const bad = await inject(ann, 'GET', `/api/posts/${post._id}/likers?cursor=nope`);
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'InvalidCursor']);
    expect((await inject(ann, 'GET', `/api/posts/${post._id}/likers`)).json()).toEqual([]);
  });

  it('leaves out people blocked either way and suspended people; the post of a blocker is 404', async () => {
    const author = await signIn(t.app);
    const viewer = await signIn(t.app);
    const blocked = await signIn(t.app);
    const blocker = await signIn(t.app);
    const suspended = await signIn(t.app);
    const plain = await signIn(t.app);
    const post = await createPost(t.app, author);
    for (const u of [blocked, blocker, suspended, plain]) await like(u, post._id);
    await inject(viewer, 'PATCH', `/api/users/${blocked.username}/block`);
    await inject(blocker, 'PATCH', `/api/users/${viewer.username}/block`);
    const admin = await signIn(t.app);
    await makeAdmin(t, admin);
    expect((await inject(admin, 'POST', `/api/admin/users/${suspended.username}/suspend`)).statusCode).toBe(200);

    const seen = (await inject(viewer, 'GET', `/api/posts/${post._id}/likers`)).json() as PersonResult[];
    expect(names(seen)).toEqual([plain.username]);
    // The author, who blocks nobody, sees the blocked and the blocker, not the suspended one.
    const all = (await inject(author, 'GET', `/api/posts/${post._id}/likers`)).json() as PersonResult[];
    expect(names(all).sort()).toEqual([blocked.username, blocker.username, plain.username].sort());

    // Someone who blocks the viewer: their post does not exist for the viewer.
    const hidden = await createPost(t.app, blocker);
    expect((await inject(viewer, 'GET', `/api/posts/${hidden._id}/likers`)).statusCode).toBe(404);
  });
});

describe('followers and following lists', () => {
  it('say whether the viewer follows each person (followedByMe)', async () => {
    const ann = await signIn(t.app);
    const bob = await signIn(t.app);
    const cara = await signIn(t.app);
    await inject(bob, 'PATCH', `/api/users/${ann.username}/follow`);
    await inject(cara, 'PATCH', `/api/users/${ann.username}/follow`);
    await inject(ann, 'PATCH', `/api/users/${cara.username}/follow`);
    const followers = (await inject(ann, 'GET', `/api/users/${ann.username}/followers`)).json() as PersonResult[];
    expect(followers.map((p) => [p.username, p.followedByMe])).toEqual([
      [cara.username, true],
      [bob.username, false],
    ]);
    const following = (await inject(bob, 'GET', `/api/users/${ann.username}/following`)).json() as PersonResult[];
    expect(following.map((p) => [p.username, p.followedByMe])).toEqual([[cara.username, false]]);
  });
});
