import { TEXTS } from '../../lib/texts';
import type { Post } from '../../lib/types';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { uploadImage } from './multipart';

let t: TestApp;
let alice: SignedInUser;
let bob: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signIn(t.app);
  bob = await signIn(t.app);
});
afterAll(async () => {
  await t.close();
});

const inject = (
  user: SignedInUser | null,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: user?.headers ?? {}, ...(payload ? { payload } : {}) });

async function postRow(id: string) {
  return t.db.kysely.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();
}

describe('create', () => {
  it('creates a post from the session user, ignoring creator fields in the body', async () => {
    const upload = await uploadImage(t.app, alice, 'post');
    const res = await inject(alice, 'POST', '/api/posts/create', {
      message: '  Hello world  ',
      image: upload.secure_url,
      tags: ['#Sun', 'beach', 'sun', ' sea '],
      creator: bob.username,
      creatorImage: 'https://evil.example/x.png',
      userId: bob.id,
    });
    expect(res.statusCode).toBe(201);
    const post: Post = res.json();
    expect(post).toMatchObject({
      message: 'Hello world',
      image: upload.secure_url,
      tags: ['Sun', 'beach', 'sea'],
      creator: alice.username,
      creatorImage: null,
      likesCount: 0,
      dislikesCount: 0,
      commentsCount: 0,
      myReaction: null,
    });
    expect(post.imageInfo).toMatchObject({
      width: expect.any(Number),
      height: expect.any(Number),
      srcset: expect.stringContaining('w'),
    });
    const user = await t.db.kysely
      .selectFrom('users')
      .select('posts_count')
      .where('id', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect(user.posts_count).toBe(1);
  });

  it.each([
    [{ message: '', tags: ['a'] }, TEXTS.messageRequired],
    [{ message: '   ', tags: ['a'] }, TEXTS.messageRequired],
    [{ tags: ['a'] }, TEXTS.messageRequired],
    [{ message: 'x'.repeat(256), tags: ['a'] }, 'Message must be at most 255 characters'],
    [{ message: 'ok', tags: [] }, TEXTS.tagRequired],
    [{ message: 'ok', tags: ['   '] }, TEXTS.tagRequired],
    [{ message: 'ok', tags: ['x'.repeat(31)] }, TEXTS.tagRequired],
    [{ message: 'ok' }, TEXTS.tagRequired],
    [{ message: 'ok', tags: ['no spaces allowed'] }, 'Tags may contain only letters, digits, _ and -'],
    [{ message: 'ok', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'A post can have at most 20 tags'],
  ])('refuses %j with its message and writes nothing', async (payload, message) => {
    const upload = await uploadImage(t.app, alice, 'post');
    const before = await t.db.kysely
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const res = await inject(alice, 'POST', '/api/posts/create', { image: upload.secure_url, ...payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    const after = await t.db.kysely
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('accepts exactly 255 characters and a 30-character tag', async () => {
    const post = await createPost(t.app, alice, { message: 'm'.repeat(255), tags: ['t'.repeat(30)] });
    expect(post.message).toHaveLength(255);
  });

  it('requires an image uploaded here, by this user, as a post image', async () => {
    const foreign = await inject(alice, 'POST', '/api/posts/create', {
      message: 'x',
      tags: ['a'],
      image: 'https://example.com/cat.jpg',
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().code).toBe('InvalidImage');
    const missing = await inject(alice, 'POST', '/api/posts/create', { message: 'x', tags: ['a'] });
    expect(missing.statusCode).toBe(400);
    const bobsUpload = await uploadImage(t.app, bob, 'post');
    const stolen = await inject(alice, 'POST', '/api/posts/create', {
      message: 'x',
      tags: ['a'],
      image: bobsUpload.secure_url,
    });
    expect(stolen.statusCode).toBe(400);
    const avatar = await uploadImage(t.app, alice, 'avatar');
    const wrongPreset = await inject(alice, 'POST', '/api/posts/create', {
      message: 'x',
      tags: ['a'],
      image: avatar.secure_url,
    });
    expect(wrongPreset.statusCode).toBe(400);
  });

  it('answers 401 without a session', async () => {
    const res = await inject(null, 'POST', '/api/posts/create', { message: 'x', tags: ['a'], image: 'x' });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(TEXTS.notLoggedIn);
  });
});

describe('get', () => {
  it('returns the post with its newest comments', async () => {
    const post = await createPost(t.app, alice);
    await inject(bob, 'POST', `/api/posts/${post._id}/comments`, { message: 'first' });
    await inject(bob, 'POST', `/api/posts/${post._id}/comments`, { message: 'second' });
    const res = await inject(bob, 'GET', `/api/posts/${post._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      _id: post._id,
      commentsCount: 2,
      comments: [{ message: 'second' }, { message: 'first' }],
    });
  });

  it('embeds the 12 newest comments, and a Link to the older ones only when there are any', async () => {
    const post = await createPost(t.app, alice);
    for (let i = 1; i <= 12; i += 1)
      await inject(bob, 'POST', `/api/posts/${post._id}/comments`, { message: `comment ${i}` });
    const twelve = await inject(bob, 'GET', `/api/posts/${post._id}`);
    expect(twelve.json().comments).toHaveLength(12);
    expect(twelve.headers.link).toBeUndefined();

    await inject(bob, 'POST', `/api/posts/${post._id}/comments`, { message: 'comment 13' });
    const thirteen = await inject(bob, 'GET', `/api/posts/${post._id}`);
    const shown = thirteen.json().comments as { commentId: string; message: string }[];
    expect(shown.map((c) => c.message)).toEqual(Array.from({ length: 12 }, (_, i) => `comment ${13 - i}`));
    const next = `/api/posts/${post._id}/comments?cursor=${shown[11].commentId}&limit=12`;
    expect(thirteen.headers.link).toBe(`<${next}>; rel="next"`);
    // The same page the comments list itself links to, and the end of the list.
    const list = await inject(bob, 'GET', `/api/posts/${post._id}/comments`);
    expect(list.headers.link).toBe(thirteen.headers.link);
    const older = await inject(bob, 'GET', next);
    expect(older.json().map((c: { message: string }) => c.message)).toEqual(['comment 1']);
    expect(older.headers.link).toBeUndefined();
  });

  it('answers 404 for an unknown or malformed id, 401 without a session', async () => {
    expect((await inject(alice, 'GET', '/api/posts/0190d5c6-0000-7000-8000-000000000000')).statusCode).toBe(404);
    expect((await inject(alice, 'GET', '/api/posts/not-an-id')).statusCode).toBe(404);
    const post = await createPost(t.app, alice);
    expect((await inject(null, 'GET', `/api/posts/${post._id}`)).statusCode).toBe(401);
  });
});

describe('edit', () => {
  it('lets the creator change message, tags and image only', async () => {
    const post = await createPost(t.app, alice, { tags: ['old'] });
    const upload = await uploadImage(t.app, alice, 'post');
    const res = await inject(alice, 'PATCH', `/api/posts/${post._id}/manage`, {
      post: {
        message: 'edited',
        tags: ['New', 'other'],
        image: upload.secure_url,
        likesCount: 999,
        creator: bob.username,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'edited',
      tags: ['New', 'other'],
      image: upload.secure_url,
      likesCount: 0,
      creator: alice.username,
    });
    const byOld = await inject(alice, 'GET', '/api/posts/tagged?tags=old');
    expect(byOld.json().map((p: Post) => p._id)).not.toContain(post._id);
    const byNew = await inject(alice, 'GET', '/api/posts/tagged?tags=new');
    expect(byNew.json().map((p: Post) => p._id)).toContain(post._id);
  });

  it('validates edited fields with the spec messages', async () => {
    const post = await createPost(t.app, alice);
    const empty = await inject(alice, 'PATCH', `/api/posts/${post._id}/manage`, { post: { message: '' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(TEXTS.messageRequired);
    const noTags = await inject(alice, 'PATCH', `/api/posts/${post._id}/manage`, { post: { tags: [] } });
    expect(noTags.json().message).toBe(TEXTS.tagRequired);
  });

  it("refuses another user's edit with 403 and changes nothing", async () => {
    const post = await createPost(t.app, alice, { message: 'mine' });
    const before = await postRow(post._id);
    const res = await inject(bob, 'PATCH', `/api/posts/${post._id}/manage`, { post: { message: 'hacked' } });
    expect(res.statusCode).toBe(403);
    expect(await postRow(post._id)).toEqual(before);
  });

  it('answers 404 for a missing post and 401 without a session', async () => {
    expect(
      (
        await inject(alice, 'PATCH', '/api/posts/0190d5c6-0000-7000-8000-000000000000/manage', {
          post: { message: 'x' },
        })
      ).statusCode,
    ).toBe(404);
    const post = await createPost(t.app, alice);
    expect((await inject(null, 'PATCH', `/api/posts/${post._id}/manage`, { post: { message: 'x' } })).statusCode).toBe(
      401,
    );
  });
});

describe('delete', () => {
  it('removes the post with its tags, reactions, comments and their reactions', async () => {
    const post = await createPost(t.app, alice, { tags: ['gone'] });
    await inject(bob, 'PATCH', `/api/posts/${post._id}/like`);
    const comment = (await inject(bob, 'POST', `/api/posts/${post._id}/comments`, { message: 'hi' })).json();
    await inject(alice, 'PATCH', `/api/posts/${post._id}/comments/like`, { commentId: comment.commentId });
    const countBefore = (
      await t.db.kysely.selectFrom('users').select('posts_count').where('id', '=', alice.id).executeTakeFirstOrThrow()
    ).posts_count;

    const res = await inject(alice, 'DELETE', `/api/posts/${post._id}/manage`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ _id: post._id });
    const k = t.db.kysely;
    expect(await k.selectFrom('post_tags').selectAll().where('post_id', '=', post._id).execute()).toEqual([]);
    expect(await k.selectFrom('post_reactions').selectAll().where('post_id', '=', post._id).execute()).toEqual([]);
    expect(await k.selectFrom('comments').selectAll().where('post_id', '=', post._id).execute()).toEqual([]);
    expect(
      await k.selectFrom('comment_reactions').selectAll().where('comment_id', '=', comment.commentId).execute(),
    ).toEqual([]);
    const countAfter = (
      await k.selectFrom('users').select('posts_count').where('id', '=', alice.id).executeTakeFirstOrThrow()
    ).posts_count;
    expect(countAfter).toBe(countBefore - 1);
    expect((await inject(alice, 'GET', `/api/posts/${post._id}`)).statusCode).toBe(404);
  });

  it("refuses another user's delete with 403 and keeps the post", async () => {
    const post = await createPost(t.app, alice);
    const res = await inject(bob, 'DELETE', `/api/posts/${post._id}/manage`);
    expect(res.statusCode).toBe(403);
    expect(await postRow(post._id)).toBeDefined();
  });

  it("lets an admin delete anyone's post", async () => {
    const admin = await t.db.kysely
      .selectFrom('users')
      .select('username')
      .where('role', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(admin.username).toBe(alice.username); // the first account
    // The logged user says so, for the client to offer Delete.
    expect((await inject(alice, 'GET', '/api/auth/getLoggedUser')).json()).toMatchObject({ role: 'admin' });
    expect((await inject(bob, 'GET', '/api/auth/getLoggedUser')).json()).toMatchObject({ role: 'member' });
    const post = await createPost(t.app, bob);
    expect((await inject(alice, 'DELETE', `/api/posts/${post._id}/manage`)).statusCode).toBe(200);
  });
});

describe('like and dislike', () => {
  it('toggles, and a like replaces a dislike', async () => {
    const post = await createPost(t.app, alice);
    const like = await inject(bob, 'PATCH', `/api/posts/${post._id}/like`, { userId: alice.id });
    expect(like.json()).toEqual({ likesCount: 1, dislikesCount: 0, myReaction: 'like' });
    const dislike = await inject(bob, 'PATCH', `/api/posts/${post._id}/dislike`);
    expect(dislike.json()).toEqual({ likesCount: 0, dislikesCount: 1, myReaction: 'dislike' });
    const undo = await inject(bob, 'PATCH', `/api/posts/${post._id}/dislike`);
    expect(undo.json()).toEqual({ likesCount: 0, dislikesCount: 0, myReaction: null });
    await inject(alice, 'PATCH', `/api/posts/${post._id}/like`);
    await inject(bob, 'PATCH', `/api/posts/${post._id}/like`);
    const seen = (await inject(bob, 'GET', `/api/posts/${post._id}`)).json();
    expect(seen).toMatchObject({ likesCount: 2, myReaction: 'like' });
    const seenByAlice = (await inject(alice, 'GET', `/api/posts/${post._id}`)).json();
    expect(seenByAlice.myReaction).toBe('like');
  });

  it('keeps counters right under concurrent toggles', async () => {
    const post = await createPost(t.app, alice);
    await Promise.all(Array.from({ length: 7 }, () => inject(bob, 'PATCH', `/api/posts/${post._id}/like`)));
    const row = await postRow(post._id);
    const reactions = await t.db.kysely
      .selectFrom('post_reactions')
      .selectAll()
      .where('post_id', '=', post._id)
      .execute();
    expect(row!.likes_count).toBe(reactions.length);
    expect(reactions.length).toBe(1); // seven toggles: odd, so liked
  });

  it('answers 404 for a missing post and 401 without a session', async () => {
    expect((await inject(bob, 'PATCH', '/api/posts/0190d5c6-0000-7000-8000-000000000000/like')).statusCode).toBe(404);
    const post = await createPost(t.app, alice);
    expect((await inject(null, 'PATCH', `/api/posts/${post._id}/like`)).statusCode).toBe(401);
    expect((await inject(null, 'PATCH', `/api/posts/${post._id}/dislike`)).statusCode).toBe(401);
  });
});

describe('feeds', () => {
  it('home feed has my posts and those of people I follow; everyone has all', async () => {
    const carol = await signIn(t.app);
    const dave = await signIn(t.app);
    const carolPost = await createPost(t.app, carol);
    const davePost = await createPost(t.app, dave);
    const own = await createPost(t.app, carol);
    await inject(carol, 'PATCH', `/api/users/${dave.username}/follow`);
    const home = (await inject(carol, 'GET', '/api/posts?feed=following&limit=40')).json().map((p: Post) => p._id);
    expect(home).toEqual(expect.arrayContaining([carolPost._id, davePost._id, own._id]));
    expect(home).toHaveLength(3);
    const defaultFeed = (await inject(carol, 'GET', '/api/posts?limit=40')).json().map((p: Post) => p._id);
    expect(defaultFeed).toEqual(home);
    const all = (await inject(carol, 'GET', '/api/posts?feed=all&limit=40')).json().map((p: Post) => p._id);
    expect(all.indexOf(own._id)).toBeLessThan(all.indexOf(carolPost._id));
  });

  it('tagged finds posts with any of the tags, ignoring case', async () => {
    const a = await createPost(t.app, alice, { tags: ['Alpine'] });
    const b = await createPost(t.app, bob, { tags: ['lake'] });
    const c = await createPost(t.app, bob, { tags: ['alpine', 'LAKE'] });
    await createPost(t.app, bob, { tags: ['desert'] });
    const res = await inject(alice, 'GET', '/api/posts/tagged?tags=ALPINE,%23lake');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((p: Post) => p._id)).toEqual([c._id, b._id, a._id]);
  });

  it('validates queries', async () => {
    expect((await inject(alice, 'GET', '/api/posts/tagged?tags=')).statusCode).toBe(400);
    expect((await inject(alice, 'GET', '/api/posts/tagged')).statusCode).toBe(400);
    expect((await inject(alice, 'GET', '/api/posts?feed=nope')).statusCode).toBe(400);
    expect((await inject(alice, 'GET', '/api/posts?limit=41')).statusCode).toBe(400);
    expect((await inject(alice, 'GET', '/api/posts?limit=0')).statusCode).toBe(400);
    expect((await inject(alice, 'GET', '/api/posts?cursor=garbage')).statusCode).toBe(400);
    for (const url of ['/api/posts', '/api/posts?feed=all', '/api/posts/tagged?tags=a']) {
      expect((await inject(null, 'GET', url)).statusCode).toBe(401);
    }
  });
});

describe('writes are rate limited per user', () => {
  it('answers 429 with Retry-After past the limit', async () => {
    const limited = await createTestApp({ RATE_LIMIT_WRITES_PER_USER: '3' });
    try {
      const user = await signIn(limited.app);
      const other = await signIn(limited.app);
      const follow = () =>
        limited.app.inject({ method: 'PATCH', url: `/api/users/${other.username}/follow`, headers: user.headers });
      for (let i = 0; i < 3; i += 1) expect((await follow()).statusCode).toBe(200);
      const blocked = await follow();
      expect(blocked.statusCode).toBe(429);
      expect(blocked.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });
});

describe('alt text and content warnings', () => {
  it('stores alt, sensitive and spoiler on create and edit; defaults are empty and false', async () => {
    const plain = await createPost(t.app, alice);
    expect(plain).toMatchObject({ alt: '', sensitive: false, spoiler: '' });
    const upload = await uploadImage(t.app, alice, 'post');
    const res = await inject(alice, 'POST', '/api/posts/create', {
      message: 'Beach',
      image: upload.secure_url,
      tags: ['sea'],
      alt: '  Waves on a sandy beach  ',
      sensitive: true,
      spoiler: 'Spiders',
    });
    expect(res.statusCode).toBe(201);
    const post: Post = res.json();
    expect(post).toMatchObject({ alt: 'Waves on a sandy beach', sensitive: true, spoiler: 'Spiders' });
    const edited = await inject(alice, 'PATCH', `/api/posts/${post._id}/manage`, {
      post: { alt: 'Calm sea', sensitive: false },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ alt: 'Calm sea', sensitive: false, spoiler: 'Spiders', message: 'Beach' });
    expect((await inject(bob, 'GET', `/api/posts/${post._id}`)).json()).toMatchObject({ alt: 'Calm sea' });
  });

  it('refuses alt text over 1,500 characters and a spoiler over 100, and writes nothing', async () => {
    const upload = await uploadImage(t.app, alice, 'post');
    const base = { message: 'Too long', image: upload.secure_url, tags: ['sea'] };
    const longAlt = await inject(alice, 'POST', '/api/posts/create', { ...base, alt: 'a'.repeat(1501) });
    expect(longAlt.statusCode).toBe(400);
    expect(longAlt.json().message).toBe('Alt text must be at most 1500 characters');
    const longSpoiler = await inject(alice, 'POST', '/api/posts/create', { ...base, spoiler: 's'.repeat(101) });
    expect(longSpoiler.statusCode).toBe(400);
    expect((await inject(alice, 'POST', '/api/posts/create', { ...base, sensitive: 'yes' })).statusCode).toBe(400);
    const okAlt = await inject(alice, 'POST', '/api/posts/create', { ...base, alt: 'a'.repeat(1500) });
    expect(okAlt.statusCode).toBe(201);
    const post: Post = okAlt.json();
    const edit = await inject(alice, 'PATCH', `/api/posts/${post._id}/manage`, {
      post: { message: 'Changed', spoiler: 's'.repeat(101) },
    });
    expect(edit.statusCode).toBe(400);
    expect((await postRow(post._id))?.message).toBe('Too long');
  });
});
