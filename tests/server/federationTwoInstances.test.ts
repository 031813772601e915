/**
 * Two Posts instances federating over real HTTP (issue 32): each with its own database (SQLite, or
 * PostgreSQL under TEST_DATABASE_URL) and its own loopback address as PUBLIC_URL. Ann on A finds Bob
 * on B by his handle (his earlier post comes along from his outbox), follows him, sees his new post
 * in her home feed, likes it and comments on it (counted and notified on B), sees his edit and his
 * delete; her unfollow drops his follower count; once Bob blocks her, her comments never show on B.
 * Every wait is for something to arrive, never for a time.
 */
import { createPost } from './factories';
import { uploadImage } from './multipart';
import { type SignedInUser, type TestApp, signIn } from './helpers';
import { federatedInstance } from './federatedInstance';

/** Resolves once `check` holds (each look after a short pause); the test's own timeout bounds it. */
async function until<T>(check: () => T | Promise<T>): Promise<NonNullable<T>> {
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const WAIT = 60_000;

let a: TestApp;
let b: TestApp;
let hostA: string;
let hostB: string;
let ann: SignedInUser;
let cat: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  ({ t: a, host: hostA } = await federatedInstance());
  ({ t: b, host: hostB } = await federatedInstance());
  ann = await signIn(a.app, { username: 'ann' });
  cat = await signIn(a.app, { username: 'cat' });
  bob = await signIn(b.app, { username: 'bob' });
}, WAIT);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const call = (
  t: TestApp,
  user: SignedInUser,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: user.headers, payload });

const bobThere = () => `bob@${hostB}`;
const annThere = () => `ann@${hostA}`;

async function profile(t: TestApp, viewer: SignedInUser, username: string) {
  const res = await call(t, viewer, 'GET', `/api/users/${encodeURIComponent(username)}`);
  return res.statusCode === 200 ? (res.json().user as { followersCount: number; followingCount: number }) : null;
}

const keptPost = (t: TestApp, message: string) =>
  t.db.kysely.selectFrom('posts').selectAll().where('message', '=', message).executeTakeFirst();

const queueEmpty = async (t: TestApp) =>
  (await t.db.kysely.selectFrom('federation_queue').select('id').executeTakeFirst()) === undefined;

async function notificationsOf(t: TestApp, user: SignedInUser) {
  const res = await call(t, user, 'GET', '/api/notifications?limit=40');
  return res.json() as { type: string; actor: { username: string } }[];
}

describe('two instances', () => {
  let earlier: string;
  let remotePostId: string;

  it(
    'finds Bob by his handle, keeps him as a person of B, and fetches his earlier post',
    async () => {
      await createPost(b.app, bob, { message: 'Before anyone followed', tags: ['early'] });
      const res = await call(a, ann, 'GET', `/api/users/search?q=${encodeURIComponent(`@${bobThere()}`)}`);
      if (process.env.DEBUG_FED) console.log('search', res.statusCode, res.body);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual([expect.objectContaining({ username: bobThere(), followedByMe: false })]);
      const row = await a.db.kysely
        .selectFrom('users')
        .selectAll()
        .where('username', '=', bobThere())
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ domain: hostB, actor_uri: `http://${hostB}/users/${bob.id}`, password_hash: '' });
      const post = await until(() => keptPost(a, 'Before anyone followed'));
      expect(post.uri).toBe(`http://${hostB}/post/${post.uri!.split('/').pop()}`);
      expect(post.image).toMatch(/^\/media\/post\//);
      earlier = post.id;
      // Nobody signs in as him.
      const login = await a.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: row.email, password: '' },
      });
      expect(login.statusCode).toBeGreaterThanOrEqual(400);
      expect(login.statusCode).toBeLessThan(500);
      // "Everyone" stays A's own posts.
      const everyone = (await call(a, ann, 'GET', '/api/posts?feed=all')).json() as { _id: string }[];
      expect(everyone.map((p) => p._id)).not.toContain(earlier);
    },
    WAIT,
  );

  it(
    "follows Bob: counted on both sides, and his new post reaches Ann's home feed",
    async () => {
      const follow = await call(a, ann, 'PATCH', `/api/users/${encodeURIComponent(bobThere())}/follow`);
      expect(follow.statusCode, follow.body).toBe(200);
      expect((await profile(a, ann, 'ann'))?.followingCount).toBe(1);
      await until(async () => (await profile(b, bob, 'bob'))?.followersCount === 1);
      await until(async () =>
        (await notificationsOf(b, bob)).some((n) => n.type === 'follow' && n.actor.username === annThere()),
      );

      await createPost(b.app, bob, { message: 'Hello from B', tags: ['hello'] });
      const kept = await until(() => keptPost(a, 'Hello from B'));
      remotePostId = kept.id;
      const feed = await until(async () => {
        const posts = (await call(a, ann, 'GET', '/api/posts')).json() as { _id: string }[];
        return posts.some((p) => p._id === kept.id) ? posts : null;
      });
      expect(feed.map((p) => p._id)).toContain(kept.id);
      const tagged = (await call(a, ann, 'GET', '/api/posts/tagged?tags=hello')).json() as { _id: string }[];
      expect(tagged.map((p) => p._id)).toContain(kept.id);
    },
    WAIT,
  );

  it(
    "Ann's like and comment reach Bob: counted and notified",
    async () => {
      const like = await call(a, ann, 'PATCH', `/api/posts/${remotePostId}/like`);
      expect(like.statusCode, like.body).toBe(200);
      const comment = await call(a, ann, 'POST', `/api/posts/${remotePostId}/comments`, { message: 'Lovely!' });
      expect(comment.statusCode, comment.body).toBe(201);

      const original = (await keptPost(b, 'Hello from B'))!;
      await until(async () => (await keptPost(b, 'Hello from B'))!.likes_count === 1);
      await until(async () => (await keptPost(b, 'Hello from B'))!.comments_count === 1);
      const comments = (await call(b, bob, 'GET', `/api/posts/${original.id}/comments`)).json() as {
        message: string;
      }[];
      expect(comments.map((c) => c.message)).toEqual(['Lovely!']);
      const notes = await until(async () => {
        const list = await notificationsOf(b, bob);
        return ['like', 'comment'].every((type) => list.some((n) => n.type === type && n.actor.username === annThere()))
          ? list
          : null;
      });
      expect(notes.length).toBeGreaterThanOrEqual(3);
    },
    WAIT,
  );

  it(
    'taking the like back, turning it into a dislike, liking again and deleting the comment follow on B',
    async () => {
      const likes = async () => (await keptPost(b, 'Hello from B'))!.likes_count;
      expect((await call(a, ann, 'PATCH', `/api/posts/${remotePostId}/like`)).json().myReaction).toBeNull();
      await until(async () => (await likes()) === 0);
      // Liked again: a new Like (its own id), counted again.
      expect((await call(a, ann, 'PATCH', `/api/posts/${remotePostId}/like`)).json().myReaction).toBe('like');
      await until(async () => (await likes()) === 1);
      // A dislike stays on A: on B the like is taken back, and no dislike is counted.
      expect((await call(a, ann, 'PATCH', `/api/posts/${remotePostId}/dislike`)).json().myReaction).toBe('dislike');
      await until(async () => (await likes()) === 0);
      expect((await keptPost(b, 'Hello from B'))!.dislikes_count).toBe(0);

      const extra = await call(a, ann, 'POST', `/api/posts/${remotePostId}/comments`, { message: 'One more' });
      await until(async () => (await keptPost(b, 'Hello from B'))!.comments_count === 2);
      const removed = await call(a, ann, 'DELETE', `/api/posts/${remotePostId}/comments/${extra.json().commentId}`);
      expect(removed.statusCode, removed.body).toBe(200);
      await until(async () => (await keptPost(b, 'Hello from B'))!.comments_count === 1);
    },
    WAIT,
  );

  it(
    "Bob's profile change reaches A: his description, and his avatar fetched into A's media",
    async () => {
      const avatar = await uploadImage(b.app, bob, 'avatar');
      const res = await call(b, bob, 'PATCH', '/api/users/updateProfile', {
        email: bob.email,
        avatar: avatar.secure_url,
        description: 'Photos from B',
      });
      expect(res.statusCode, res.body).toBe(200);
      const row = await until(async () => {
        const kept = await a.db.kysely
          .selectFrom('users')
          .select(['description', 'avatar'])
          .where('username', '=', bobThere())
          .executeTakeFirstOrThrow();
        return kept.description === 'Photos from B' && kept.avatar ? kept : null;
      });
      expect(row.avatar).toMatch(/^\/media\/avatar\//);
    },
    WAIT,
  );

  it(
    "Bob's edit and delete reach A",
    async () => {
      const original = (await keptPost(b, 'Hello from B'))!;
      const edit = await call(b, bob, 'PATCH', `/api/posts/${original.id}/manage`, {
        post: { message: 'Hello again from B' },
      });
      expect(edit.statusCode, edit.body).toBe(200);
      await until(() => keptPost(a, 'Hello again from B'));
      const remove = await call(b, bob, 'DELETE', `/api/posts/${original.id}/manage`);
      expect(remove.statusCode, remove.body).toBe(200);
      await until(
        async () =>
          (await a.db.kysely.selectFrom('posts').select('id').where('id', '=', remotePostId).executeTakeFirst()) ===
          undefined,
      );
      const feed = (await call(a, ann, 'GET', '/api/posts')).json() as { _id: string }[];
      expect(feed.map((p) => p._id)).not.toContain(remotePostId);
    },
    WAIT,
  );

  it(
    'a post on A that mentions Bob by his handle reaches him and notifies him',
    async () => {
      const post = await createPost(a.app, ann, { message: `Look, @${bobThere()}!`, tags: ['look'] });
      expect(post.mentions).toEqual([bobThere()]);
      await until(async () =>
        (await notificationsOf(b, bob)).some((n) => n.type === 'mention' && n.actor.username === annThere()),
      );
      const kept = await until(() => keptPost(b, 'Look, @bob!'));
      expect(kept.uri).toBe(`http://${hostA}/post/${post._id}`);
    },
    WAIT,
  );

  it(
    "Ann's unfollow drops Bob's follower count",
    async () => {
      const res = await call(a, ann, 'PATCH', `/api/users/${encodeURIComponent(bobThere())}/unfollow`);
      expect(res.statusCode, res.body).toBe(200);
      await until(async () => (await profile(b, bob, 'bob'))?.followersCount === 0);
    },
    WAIT,
  );

  it(
    'once Bob blocks Ann, her comment never shows on B (Cat’s, sent after it, does)',
    async () => {
      // Cat finds Bob (his handle again) and his earlier post is already here.
      const search = await call(a, cat, 'GET', `/api/users/search?q=${encodeURIComponent(bobThere())}`);
      expect(search.json()).toHaveLength(1);
      const block = await call(b, bob, 'PATCH', `/api/users/${encodeURIComponent(annThere())}/block`);
      expect(block.statusCode, block.body).toBe(200);
      const blocked = await call(a, ann, 'POST', `/api/posts/${earlier}/comments`, { message: 'Still here?' });
      expect(blocked.statusCode, blocked.body).toBe(201);
      const other = await call(a, cat, 'POST', `/api/posts/${earlier}/comments`, { message: 'Hi Bob' });
      expect(other.statusCode, other.body).toBe(201);

      const original = (await keptPost(b, 'Before anyone followed'))!;
      await until(async () => (await keptPost(b, 'Before anyone followed'))!.comments_count >= 1);
      // Both deliveries were made and B has worked through its inbox.
      await until(async () => (await queueEmpty(a)) && (await queueEmpty(b)));
      const comments = (await call(b, bob, 'GET', `/api/posts/${original.id}/comments`)).json() as {
        message: string;
      }[];
      expect(comments.map((c) => c.message)).toEqual(['Hi Bob']);
      expect((await keptPost(b, 'Before anyone followed'))!.comments_count).toBe(1);
    },
    WAIT,
  );

  it(
    'a follow from someone Bob blocks is rejected: it ends on A too',
    async () => {
      const follow = await call(a, ann, 'PATCH', `/api/users/${encodeURIComponent(bobThere())}/follow`);
      expect(follow.statusCode, follow.body).toBe(200);
      expect((await profile(a, ann, bobThere()))?.followersCount).toBe(1);
      await until(async () => (await profile(a, ann, bobThere()))?.followersCount === 0);
      expect((await profile(a, ann, 'ann'))?.followingCount).toBe(0);
      expect((await profile(b, bob, 'bob'))?.followersCount).toBe(0);
    },
    WAIT,
  );

  it(
    'shows a person from elsewhere at /api/users/name@host with their page there, and the post with its original',
    async () => {
      const res = await call(a, ann, 'GET', `/api/users/${encodeURIComponent(bobThere())}`);
      expect(res.json().user).toMatchObject({ username: bobThere(), remoteUrl: `http://${hostB}/profile/bob` });
      const post = await call(a, ann, 'GET', `/api/posts/${earlier}`);
      expect(post.json().originalUrl).toMatch(new RegExp(`^http://${hostB.replace(/[.]/g, '\\.')}/post/`));
      const own = await call(a, ann, 'GET', '/api/users/ann');
      expect(own.json().user.remoteUrl).toBeUndefined();
    },
    WAIT,
  );
});
