/** GET /api/users/me/export: a streamed zip of the account's data and images, rate limited. */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { commentOn, follow, reactToComment, reactToPost } from './activity';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { uploadImage } from './multipart';
import { readZip } from './zip';

let t: TestApp;
let ann: SignedInUser;
let bob: SignedInUser;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_EXPORTS_PER_USER: '2' });
  ann = await signIn(t.app);
  bob = await signIn(t.app);
});
afterAll(() => t.close());

const exportOf = (user: SignedInUser) =>
  t.app.inject({ method: 'GET', url: '/api/users/me/export', headers: user.headers });
const json = (entries: Map<string, Buffer>, name: string) => JSON.parse(entries.get(name)!.toString('utf8'));

describe('GET /api/users/me/export', () => {
  it("holds the account, its posts, comments, reactions, follows and images, and nobody else's", async () => {
    const avatar = await uploadImage(t.app, ann, 'avatar');
    await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateProfile',
      headers: ann.headers,
      payload: { avatar: avatar.secure_url, description: 'Lighthouses' },
    });
    const annPost = await createPost(t.app, ann, { message: 'Ann at sea', tags: ['sea', 'Boats'] });
    const bobPost = await createPost(t.app, bob, { message: 'Bob on land' });
    const onBob = await commentOn(t.app, ann, bobPost._id, 'Nice one');
    const bobsComment = await commentOn(t.app, bob, bobPost._id, 'Thanks');
    await commentOn(t.app, bob, annPost._id, 'Not Ann');
    await reactToPost(t.app, ann, bobPost._id, 'like');
    await reactToComment(t.app, ann, bobPost._id, bobsComment, 'dislike');
    await follow(t.app, ann, bob.username);
    await follow(t.app, bob, ann.username);

    const res = await exportOf(ann);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="posts-${ann.username}-\\d{4}-\\d\\d-\\d\\d\\.zip"$`),
    );
    expect(res.headers['cache-control']).toBe('private, no-store');
    // Sent as it is written: no length known up front.
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const entries = readZip(res.rawPayload);

    const account = json(entries, 'account.json');
    expect(account).toMatchObject({
      _id: ann.id,
      username: ann.username,
      email: ann.email,
      description: 'Lighthouses',
      avatar: avatar.secure_url,
      avatarFile: `images/${avatar.secure_url.replace('/media/', '')}`,
      twoFactorEnabled: false,
    });
    expect(account).not.toHaveProperty('password_hash');
    expect(JSON.stringify(account)).not.toMatch(/argon2/);

    const posts = json(entries, 'posts.json');
    expect(posts).toEqual([
      expect.objectContaining({ _id: annPost._id, message: 'Ann at sea', tags: ['sea', 'Boats'], commentsCount: 1 }),
    ]);
    expect(json(entries, 'comments.json')).toEqual([
      expect.objectContaining({ commentId: onBob, postId: bobPost._id, message: 'Nice one' }),
    ]);
    expect(json(entries, 'reactions.json')).toEqual({
      posts: [expect.objectContaining({ postId: bobPost._id, kind: 'like' })],
      comments: [expect.objectContaining({ commentId: bobsComment, kind: 'dislike' })],
    });
    expect(json(entries, 'follows.json')).toEqual({
      following: [expect.objectContaining({ username: bob.username })],
      followers: [expect.objectContaining({ username: bob.username })],
    });

    // The stored images, byte for byte: the post's and the avatar.
    const images = [...entries.keys()].filter((name) => name.startsWith('images/')).sort();
    expect(images).toEqual([account.avatarFile, posts[0].imageFile].sort());
    for (const name of images)
      expect(entries.get(name)!.equals(readFileSync(path.join(t.config.mediaDir, name.slice('images/'.length))))).toBe(
        true,
      );
  });

  it("holds the posts' alt text and content warnings, the blocks, the mutes and the notifications", async () => {
    const gus = await signIn(t.app);
    const hal = await signIn(t.app);
    const ian = await signIn(t.app);
    const image = (await uploadImage(t.app, gus, 'post')).secure_url;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/posts/create',
      headers: gus.headers,
      payload: {
        message: 'Storm',
        tags: ['sea'],
        image,
        alt: 'Waves over the pier',
        sensitive: true,
        spoiler: 'Flood',
        crop: { x: 0.2, y: 0.9, fit: false },
      },
    });
    expect(created.statusCode).toBe(201);
    const post = created.json<{ _id: string }>();
    await follow(t.app, bob, gus.username);
    const comment = await commentOn(t.app, bob, post._id, 'Stay safe');
    for (const [verb, user] of [
      ['block', hal],
      ['mute', ian],
    ] as const)
      expect(
        (await t.app.inject({ method: 'PATCH', url: `/api/users/${user.username}/${verb}`, headers: gus.headers }))
          .statusCode,
      ).toBe(200);

    const entries = readZip((await exportOf(gus)).rawPayload);
    expect(json(entries, 'posts.json')).toEqual([
      expect.objectContaining({
        _id: post._id,
        alt: 'Waves over the pier',
        sensitive: true,
        spoiler: 'Flood',
        crop: { x: 0.2, y: 0.9, fit: false },
        audience: 'public',
      }),
    ]);
    expect(json(entries, 'relations.json')).toEqual({
      blocks: [{ username: hal.username, since: expect.any(String) }],
      mutes: [{ username: ian.username, since: expect.any(String) }],
    });
    const notifications = json(entries, 'notifications.json') as { type: string }[];
    expect(notifications.toSorted((a, b) => a.type.localeCompare(b.type))).toEqual([
      {
        type: 'comment',
        actor: bob.username,
        postId: post._id,
        commentId: comment,
        readAt: null,
        createdAt: expect.any(String),
      },
      {
        type: 'follow',
        actor: bob.username,
        postId: null,
        commentId: null,
        readAt: null,
        createdAt: expect.any(String),
      },
    ]);
  });

  it('an image whose file went meanwhile is an empty entry; the rest of the zip is whole', async () => {
    const fay = await signIn(t.app);
    const post = await createPost(t.app, fay, { message: 'Gone file' });
    const key = post.image.slice('/media/'.length);
    rmSync(path.join(t.config.mediaDir, key));
    const res = await exportOf(fay);
    expect(res.statusCode).toBe(200);
    const entries = readZip(res.rawPayload);
    expect(entries.get(`images/${key}`)!.length).toBe(0);
    expect(json(entries, 'posts.json')).toEqual([expect.objectContaining({ message: 'Gone file' })]);
  });

  it('an account with nothing yet exports empty lists', async () => {
    const cid = await signIn(t.app);
    const entries = readZip((await exportOf(cid)).rawPayload);
    expect([...entries.keys()].sort()).toEqual([
      'account.json',
      'comments.json',
      'follows.json',
      'notifications.json',
      'posts.json',
      'reactions.json',
      'relations.json',
      'saved.json',
      'tags.json',
    ]);
    expect(json(entries, 'posts.json')).toEqual([]);
    expect(json(entries, 'saved.json')).toEqual([]);
    expect(json(entries, 'tags.json')).toEqual([]);
    expect(json(entries, 'follows.json')).toEqual({ following: [], followers: [] });
  });

  it('streams a large account page by page into valid JSON', async () => {
    const dee = await signIn(t.app);
    const post = await createPost(t.app, bob, { message: 'Many comments' });
    // More comments than one page (500) of the export's reads.
    const now = Date.now();
    await t.db.kysely
      .insertInto('comments')
      .values(
        Array.from({ length: 1203 }, (_, i) => ({
          id: `0190d5c6-${String(i).padStart(4, '0')}-7000-8000-000000000000`,
          post_id: post._id,
          user_id: dee.id,
          message: `comment ${i}`,
          created_at: new Date(now + i).toISOString(),
        })),
      )
      .execute();
    const comments = json(readZip((await exportOf(dee)).rawPayload), 'comments.json') as { message: string }[];
    expect(comments).toHaveLength(1203);
    expect(new Set(comments.map((c) => c.message)).size).toBe(1203);
  });

  it('is rate limited per user, and needs a session', async () => {
    const eve = await signIn(t.app);
    expect((await exportOf(eve)).statusCode).toBe(200);
    expect((await exportOf(eve)).statusCode).toBe(200);
    const third = await exportOf(eve);
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/me/export' })).statusCode).toBe(401);
  });
});
