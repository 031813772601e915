/**
 * Issue 73, item 1: saved posts. `PUT`/`DELETE /api/posts/{id}/save`, `GET /api/posts/saved` (newest
 * saved first, paged with Link), and `savedByMe` on the saver's posts alone. A save is private: no
 * other person can learn of it through any answer; a post hidden from the saver leaves their list.
 */
import type { Post } from '../../lib/types';
import { newId } from '../../server/domain/ids';
import { createPost, walkPages } from './factories';
import { readZip } from './zip';
import { type SignedInUser, type TestApp, createTestApp, makeAdmin, signIn } from './helpers';

let t: TestApp;
beforeAll(async () => {
  // The shared rows and each reader's saved ids kept for a minute: only the events can show a change.
  t = await createTestApp({ POST_CACHE_MS: '60000' });
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'PUT' | 'DELETE' | 'PATCH' | 'POST';
const inject = (user: SignedInUser | null, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });
const save = (user: SignedInUser, postId: string) => inject(user, 'PUT', `/api/posts/${postId}/save`);
const unsave = (user: SignedInUser, postId: string) => inject(user, 'DELETE', `/api/posts/${postId}/save`);
const savedList = async (user: SignedInUser) => {
  const res = await inject(user, 'GET', '/api/posts/saved');
  expect(res.statusCode).toBe(200);
  return res.json() as Post[];
};
const ids = (posts: Post[]) => posts.map((p) => p._id);
const saveRows = async (userId: string) =>
  t.db.kysely.selectFrom('saved_posts').select('post_id').where('user_id', '=', userId).execute();
/** Each save's time set apart, so "newest saved first" does not hang on the clock's resolution. */
const savedAt = (user: SignedInUser, postId: string, iso: string) =>
  t.db.kysely
    .updateTable('saved_posts')
    .set({ created_at: iso })
    .where('post_id', '=', postId)
    .where('user_id', '=', user.id)
    .execute();

describe('saving a post', () => {
  it('marks it savedByMe for the saver in every read, and unsaving takes the mark back', async () => {
    const author = await signIn(t.app);
    const saver = await signIn(t.app);
    await inject(saver, 'PATCH', `/api/users/${author.username}/follow`);
    const post = await createPost(t.app, author, { tags: ['saving'] });
    // Warm the reads (a page is kept from its second read).
    for (let i = 0; i < 3; i++) {
      await inject(saver, 'GET', '/api/posts');
      await inject(saver, 'GET', `/api/posts/${post._id}`);
    }

    const saved = await save(saver, post._id);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ _id: post._id, savedByMe: true, likesCount: 0 });

    const reads = [
      '/api/posts',
      '/api/posts?feed=all',
      '/api/posts/tagged?tags=saving',
      `/api/users/${author.username}/posts`,
    ];
    for (const url of reads) {
      const listed = (await inject(saver, 'GET', url)).json() as Post[];
      expect(
        listed.find((p) => p._id === post._id),
        url,
      ).toMatchObject({ savedByMe: true });
    }
    expect((await inject(saver, 'GET', `/api/posts/${post._id}`)).json()).toMatchObject({ savedByMe: true });

    // Saving again keeps the one save (and its time).
    const before = await t.db.kysely.selectFrom('saved_posts').selectAll().where('user_id', '=', saver.id).execute();
    expect((await save(saver, post._id)).statusCode).toBe(200);
    expect(await t.db.kysely.selectFrom('saved_posts').selectAll().where('user_id', '=', saver.id).execute()).toEqual(
      before,
    );

    const unsaved = await unsave(saver, post._id);
    expect(unsaved.statusCode).toBe(200);
    expect(unsaved.json()).not.toHaveProperty('savedByMe');
    for (const url of [...reads, `/api/posts/${post._id}`])
      expect((await inject(saver, 'GET', url)).body, url).not.toContain('savedByMe');
    expect(await savedList(saver)).toEqual([]);
    // Unsaving what is not saved is no error either.
    expect((await unsave(saver, post._id)).statusCode).toBe(200);
  });

  it('needs a session (401); an unknown post or id is 404 PostNotFound; a bad cursor 400', async () => {
    const ann = await signIn(t.app);
    const post = await createPost(t.app, ann);
    expect((await inject(null, 'PUT', `/api/posts/${post._id}/save`)).statusCode).toBe(401);
    expect((await inject(null, 'DELETE', `/api/posts/${post._id}/save`)).statusCode).toBe(401);
    expect((await inject(null, 'GET', '/api/posts/saved')).statusCode).toBe(401);
    for (const id of ['0190e9b4-0000-7000-8000-000000000000', 'not-an-id']) {
      const res = await save(ann, id);
      expect([res.statusCode, res.json().code]).toEqual([404, 'PostNotFound']);
      expect((await unsave(ann, id)).statusCode).toBe(404);
    }
    const bad = await inject(ann, 'GET', '/api/posts/saved?cursor=nope');
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'InvalidCursor']);
    expect(await saveRows(ann.id)).toEqual([]);
  });
});

describe('privacy of saves', () => {
  it('nobody else learns of a save: not the author, not a third person, in no read, count or notification', async () => {
    const author = await signIn(t.app);
    const saver = await signIn(t.app);
    const other = await signIn(t.app);
    await inject(other, 'PATCH', `/api/users/${author.username}/follow`);
    const post = await createPost(t.app, author, { tags: ['private'] });
    const readsOf = (user: SignedInUser) => [
      `/api/posts/${post._id}`,
      '/api/posts',
      '/api/posts?feed=all',
      '/api/posts/tagged?tags=private',
      `/api/users/${author.username}/posts`,
      `/api/users/${author.username}`,
      `/api/posts/${post._id}/likers`,
      '/api/notifications',
      ...(user === author ? ['/api/posts/saved'] : []),
    ];
    const answers = async (user: SignedInUser) =>
      Promise.all(readsOf(user).map(async (url) => (await inject(user, 'GET', url)).body));
    // Twice: the second read is the kept one.
    await answers(author);
    await answers(other);
    const authorBefore = await answers(author);
    const otherBefore = await answers(other);

    expect((await save(saver, post._id)).statusCode).toBe(200);

    // Every answer to the others reads as before, byte for byte (no count, no mark, no notification).
    expect(await answers(author)).toEqual(authorBefore);
    expect(await answers(other)).toEqual(otherBefore);
    for (const body of [...(await answers(author)), ...(await answers(other))]) expect(body).not.toContain('savedByMe');
    // Their own saved lists hold nothing; no address names another person's list.
    expect(await savedList(author)).toEqual([]);
    expect(await savedList(other)).toEqual([]);
    expect((await inject(other, 'GET', `/api/users/${saver.username}/saved`)).statusCode).toBe(404);
    expect((await inject(other, 'GET', `/api/posts/saved?user=${saver.username}`)).json()).toEqual([]);
    // The saver sees it saved.
    expect(ids(await savedList(saver))).toEqual([post._id]);
  });
});

describe('GET /api/posts/saved', () => {
  it('lists newest saved first (not newest posted), paged with Link as the feeds', async () => {
    const author = await signIn(t.app);
    const saver = await signIn(t.app);
    const posts: Post[] = [];
    for (let i = 0; i < 5; i++) posts.push(await createPost(t.app, author, { message: `Post ${i}` }));
    for (const p of posts) expect((await save(saver, p._id)).statusCode).toBe(200);
    // Saved in the order 2, 0, 4, 1, 3 (oldest first).
    const order = [2, 0, 4, 1, 3];
    for (const [at, i] of order.entries()) await savedAt(saver, posts[i]._id, `2026-01-0${at + 1}T00:00:00.000Z`);

    const first = await inject(saver, 'GET', '/api/posts/saved?limit=2');
    expect(first.statusCode).toBe(200);
    expect(first.headers.link).toMatch(/rel="next"/);
    const { items, pages } = await walkPages<Post>(t.app, saver, '/api/posts/saved?limit=2');
    expect(pages).toBe(3);
    expect(ids(items)).toEqual([...order].reverse().map((i) => posts[i]._id));
    expect(items.every((p) => p.savedByMe === true)).toBe(true);
    // Each is the Post every list answers.
    expect(Object.keys(items[0])).toEqual(
      expect.arrayContaining(['_id', 'message', 'image', 'creator', 'likesCount', 'commentsCount', 'audience']),
    );
  });

  it('fills a page past the saved posts hidden from the reader', async () => {
    const author = await signIn(t.app);
    const blocker = await signIn(t.app);
    const saver = await signIn(t.app);
    const shown: Post[] = [];
    for (let i = 0; i < 3; i++) shown.push(await createPost(t.app, author));
    // More hidden posts than one read of saved ids takes: copies of one post of the blocker's.
    const original = await createPost(t.app, blocker);
    const row = await t.db.kysely
      .selectFrom('posts')
      .selectAll()
      .where('id', '=', original._id)
      .executeTakeFirstOrThrow();
    const hidden = [original._id];
    for (let i = 0; i < 60; i++) {
      const id = newId();
      await t.db.kysely
        .insertInto('posts')
        .values({ ...row, id })
        .execute();
      hidden.push(id);
    }
    // Saved: one shown, then the hidden ones, then the other two shown (oldest first).
    const order = [shown[0]._id, ...hidden, shown[1]._id, shown[2]._id];
    for (const id of order) expect((await save(saver, id)).statusCode).toBe(200);
    for (const [at, id] of order.entries())
      await savedAt(saver, id, new Date(Date.UTC(2026, 0, 1, 0, at)).toISOString());
    await inject(blocker, 'PATCH', `/api/users/${saver.username}/block`);

    const first = await inject(saver, 'GET', '/api/posts/saved?limit=2');
    expect(ids(first.json() as Post[])).toEqual([shown[2]._id, shown[1]._id]);
    expect(first.headers.link).toMatch(/rel="next"/);
    const { items } = await walkPages<Post>(t.app, saver, '/api/posts/saved?limit=2');
    expect(ids(items)).toEqual([shown[2]._id, shown[1]._id, shown[0]._id]);
  });
});

describe('a saved post hidden from the saver leaves the list', () => {
  /** A post by a new author, saved by a new saver who follows them, listed in the saver's Saved. */
  async function savedPost() {
    const author = await signIn(t.app);
    const saver = await signIn(t.app);
    await inject(saver, 'PATCH', `/api/users/${author.username}/follow`);
    const post = await createPost(t.app, author);
    expect((await save(saver, post._id)).statusCode).toBe(200);
    // Read twice: kept from the second read, so only the change's events can take it out.
    await savedList(saver);
    expect(ids(await savedList(saver))).toEqual([post._id]);
    return { author, saver, post };
  }

  it('deleted: the list and the save go', async () => {
    const { author, saver, post } = await savedPost();
    expect((await inject(author, 'DELETE', `/api/posts/${post._id}/manage`)).statusCode).toBe(200);
    expect(await savedList(saver)).toEqual([]);
    expect(await saveRows(saver.id)).toEqual([]);
  });

  it('its audience changed to one the saver is not in', async () => {
    const { author, saver, post } = await savedPost();
    // Followers only: the saver still follows, and still sees it.
    const edit = (audience: string) => inject(author, 'PATCH', `/api/posts/${post._id}/manage`, { post: { audience } });
    expect((await edit('followers')).statusCode).toBe(200);
    expect(ids(await savedList(saver))).toEqual([post._id]);
    // Mentioned people only, and the saver is not mentioned: gone, and no new save is taken.
    expect((await edit('mentioned')).statusCode).toBe(200);
    expect(await savedList(saver)).toEqual([]);
    expect((await save(saver, post._id)).statusCode).toBe(404);
    // Public again: back.
    expect((await edit('public')).statusCode).toBe(200);
    expect(ids(await savedList(saver))).toEqual([post._id]);
  });

  it('a follower-only post after the saver unfollows', async () => {
    const { author, saver, post } = await savedPost();
    await inject(author, 'PATCH', `/api/posts/${post._id}/manage`, { post: { audience: 'followers' } });
    await inject(saver, 'PATCH', `/api/users/${author.username}/unfollow`);
    expect(await savedList(saver)).toEqual([]);
  });

  it('its author blocks the saver', async () => {
    const { author, saver, post } = await savedPost();
    await inject(author, 'PATCH', `/api/users/${saver.username}/block`);
    expect(await savedList(saver)).toEqual([]);
    // A save of a post one may not see writes nothing.
    const other = await createPost(t.app, author);
    expect((await save(saver, other._id)).statusCode).toBe(404);
    expect((await saveRows(saver.id)).map((r) => r.post_id)).toEqual([post._id]);
  });

  it('the saver blocks its author', async () => {
    const { author, saver } = await savedPost();
    await inject(saver, 'PATCH', `/api/users/${author.username}/block`);
    expect(await savedList(saver)).toEqual([]);
  });

  it('its author is suspended', async () => {
    const { author, saver } = await savedPost();
    const admin = await signIn(t.app);
    await makeAdmin(t, admin);
    expect((await inject(admin, 'POST', `/api/admin/users/${author.username}/suspend`)).statusCode).toBe(200);
    expect(await savedList(saver)).toEqual([]);
  });
});

describe('saves and accounts', () => {
  it("go with the saver's account, and with the author's (their posts go)", async () => {
    const author = await signIn(t.app);
    const saver = await signIn(t.app);
    const another = await signIn(t.app);
    const post = await createPost(t.app, author);
    await save(saver, post._id);
    await save(another, post._id);
    expect(await saveRows(saver.id)).toHaveLength(1);
    expect((await inject(saver, 'DELETE', '/api/users/me', { password: saver.password })).statusCode).toBe(200);
    expect(await saveRows(saver.id)).toEqual([]);
    expect(await saveRows(another.id)).toHaveLength(1);
    expect((await inject(author, 'DELETE', '/api/users/me', { password: author.password })).statusCode).toBe(200);
    expect(await saveRows(another.id)).toEqual([]);
    expect(await savedList(another)).toEqual([]);
  });

  it("are in the data export (saved.json: the post ids and when), and only the saver's", async () => {
    const author = await signIn(t.app);
    const saver = await signIn(t.app);
    const post = await createPost(t.app, author);
    await save(saver, post._id);
    await savedAt(saver, post._id, '2026-02-03T04:05:06.000Z');
    const zipOf = async (user: SignedInUser) => readZip((await inject(user, 'GET', '/api/users/me/export')).rawPayload);
    const saved = JSON.parse((await zipOf(saver)).get('saved.json')!.toString('utf8'));
    expect(saved).toEqual([{ postId: post._id, savedAt: '2026-02-03T04:05:06.000Z' }]);
    expect(JSON.parse((await zipOf(author)).get('saved.json')!.toString('utf8'))).toEqual([]);
  });
});
