import { cacheRegistry } from '../../../server/cache/registry';
import type { Post } from '../../../lib/types';
import { newId } from '../../../server/domain/ids';
import { type FeedIndex, createFeedIndex, idFloorAt } from '../../../server/posts/homeFeed/feedIndex';
import { createHomeFeed } from '../../../server/posts/homeFeed';
import { homeFeedQueries } from '../../../server/posts/homeFeed/queries';
import { personNumbers } from '../../../server/posts/homeFeed/personNumbers';
import { createPost, userRow } from '../factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from '../helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const image = '/media/feed-index-test.jpg';
/** Every post's audience admits the reader (the tests here are about the index). */
const everything = () => true;
let userCount = 0;

/** Users and posts straight into the database, as another instance (or the seed) writes them. */
async function insertUsers(n: number): Promise<string[]> {
  const users = Array.from({ length: n }, () => userRow(`fi${(userCount += 1)}`));
  await t.db.kysely.insertInto('users').values(users).execute();
  return users.map((u) => u.id);
}

async function insertPost(creatorId: string, id = newId()): Promise<string> {
  const now = new Date().toISOString();
  await t.db.kysely
    .insertInto('posts')
    .values({
      id,
      creator_id: creatorId,
      message: 'm',
      image,
      media_id: null,
      tags: '[]',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

async function follow(followerId: string, followeeIds: string[]): Promise<void> {
  if (followeeIds.length === 0) return;
  const now = new Date().toISOString();
  await t.db.kysely
    .insertInto('follows')
    .values(
      followeeIds.map((followeeId) => ({
        id: newId(),
        follower_id: followerId,
        followee_id: followeeId,
        created_at: now,
      })),
    )
    .execute();
}

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** No followees. */
const NOBODY = new Int32Array(0);

async function loadedIndex(
  options: Partial<Parameters<typeof createFeedIndex>[1]> = {},
  numbers = personNumbers(),
): Promise<FeedIndex> {
  const index = createFeedIndex(t.db.kysely, { maxPosts: 100_000, syncMs: 0, chunk: 50, ...options }, numbers);
  await index.start();
  expect(index.state).toBe('ready');
  return index;
}

describe('the home feed index', () => {
  it('finds what the database walk finds, for every viewer, cursor and page size', async () => {
    const rand = random(7);
    // More than 32 creators: the walk marks them in 32-bit words.
    const creators = await insertUsers(70);
    const posted: string[] = [];
    // Skewed like real data: a few creators post most.
    for (let i = 0; i < 400; i += 1) posted.push(await insertPost(creators[Math.floor(rand() ** 2 * creators.length)]));
    const viewers = await insertUsers(4);
    await follow(viewers[0], creators.slice(0, 3));
    await follow(
      viewers[1],
      creators.filter(() => rand() < 0.5),
    );
    await follow(viewers[2], creators.slice(40));
    // viewers[3] follows nobody: only their own posts.
    await insertPost(viewers[3]);
    // Loaded in chunks of 50 rows, so the chunk boundaries are crossed many times.
    const numbers = personNumbers();
    const index = await loadedIndex({}, numbers);
    const cursors = [null, posted[399], posted[200], posted[37], posted[0]];
    for (const viewer of viewers) {
      const follows = await t.db.kysely
        .selectFrom('follows')
        .select('followee_id')
        .where('follower_id', '=', viewer)
        .execute();
      const followees = numbers.listOf(follows.map((f) => f.followee_id));
      for (const cursor of cursors) {
        for (const limit of [1, 13, 500]) {
          const expected = (await homeFeedQueries(t.db.kysely).homeFeedPosts(viewer, cursor, limit)).map((p) => p.id);
          expect(index.newest(viewer, followees, cursor, limit)).toEqual(expected);
        }
      }
    }
    await index.close();
  });

  it('takes new posts in id order, late ones included, and keeps removed ones out', async () => {
    const [creator] = await insertUsers(1);
    const late = newId(); // minted now, committed after newer posts (another instance's slow transaction)
    const first = await insertPost(creator);
    const index = await loadedIndex({ syncMs: 60_000 });
    const second = newId();
    index.added(second, creator);
    index.added(second, creator); // a post seen twice (added, then read by a sync) is kept once
    expect(index.newest(creator, NOBODY, null, 10)).toEqual([second, first]);

    await insertPost(creator, late);
    index.added(late, creator);
    expect(index.newest(creator, NOBODY, null, 10)).toEqual([second, first, late]);
    expect(index.newest(creator, NOBODY, first, 10)).toEqual([late]);

    index.removed(first);
    expect(index.newest(creator, NOBODY, null, 10)).toEqual([second, late]);
    await index.close();
  });

  it("finds a followee's first post with a follow list made before it", async () => {
    const [reader, newcomer] = await insertUsers(2);
    const numbers = personNumbers();
    const index = await loadedIndex({}, numbers);
    const followees = numbers.listOf([newcomer]); // kept by the follow lists' cache before the post
    expect(index.newest(reader, followees, null, 10)).toEqual([]);
    const first = newId();
    index.added(first, newcomer);
    expect(index.newest(reader, followees, null, 10)).toEqual([first]);
    await index.close();
  });

  it('reads posts written elsewhere at most every syncMs, going back lookbackMs', async () => {
    const [creator] = await insertUsers(1);
    const index = await loadedIndex({ syncMs: 60_000 });
    await index.sync(); // the first sync after loading always runs
    const elsewhere = await insertPost(creator);
    await index.sync();
    expect(index.newest(creator, NOBODY, null, 10)).toEqual([]); // within syncMs: not read yet

    const eager = await loadedIndex({ syncMs: 0 });
    await eager.sync();
    const lateId = newId();
    const newer = await insertPost(creator);
    await eager.sync();
    await insertPost(creator, lateId); // committed after a sync that already saw a newer id
    await eager.sync();
    expect(eager.newest(creator, NOBODY, null, 10)).toEqual([newer, lateId, elsewhere]);
    await Promise.all([index.close(), eager.close()]);
  });

  it('switches itself off above maxPosts, and the feed still answers from the database', async () => {
    const [creator] = await insertUsers(1);
    await insertPost(creator);
    const count = Number(
      (
        await t.db.kysely
          .selectFrom('posts')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const full = await loadedIndex({ maxPosts: count });
    full.added(newId(), creator);
    expect(full.state).toBe('off');
    expect(full.newest(creator, NOBODY, null, 10)).toBeNull();

    const tooSmall = createFeedIndex(t.db.kysely, { maxPosts: count - 1, syncMs: 0 });
    await tooSmall.start();
    expect(tooSmall.state).toBe('off');
    const disabled = createFeedIndex(t.db.kysely, { maxPosts: 0, syncMs: 0 });
    await disabled.start();
    expect(disabled.newest(creator, NOBODY, null, 10)).toBeNull();
  });

  it('bounds the ids minted from a time', () => {
    const before = idFloorAt(Date.now());
    const id = newId();
    expect(id >= before).toBe(true);
    expect(idFloorAt(Date.now() + 10) > id).toBe(true);
  });
});

describe('the home feed module', () => {
  /** The module over its own index, so a test can watch what the index holds. */
  async function feedWithIndex(syncMs = 0) {
    const numbers = personNumbers();
    const index = await loadedIndex({ syncMs }, numbers);
    return {
      index,
      feed: createHomeFeed(t.db.kysely, { caches: cacheRegistry(), maxPosts: 100_000, syncMs }, numbers, index),
    };
  }
  const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

  it('walks the index, and takes a post added here at once', async () => {
    const [author] = await insertUsers(1);
    const { index, feed } = await feedWithIndex(60_000);
    const post = await insertPost(author);
    feed.postAdded(post, author);
    expect(index.newest(author, NOBODY, null, 1)).toEqual([post]);
    expect(ids(await feed.page(author, null, 1, everything))).toEqual([post]);
    await index.close();
  });

  it('skips posts deleted through another instance, still fills the page, and drops them from the index', async () => {
    const [author] = await insertUsers(1);
    const { index, feed } = await feedWithIndex();
    const posts: string[] = [];
    for (let i = 0; i < 5; i += 1) posts.unshift(await insertPost(author));
    await feed.page(author, null, 1, everything); // the sync reads them into the index
    // Deleted straight in the database: the index still lists them.
    await t.db.kysely.deleteFrom('posts').where('id', 'in', [posts[0], posts[2]]).execute();
    expect(index.newest(author, NOBODY, null, 5)).toEqual(posts);
    expect(ids(await feed.page(author, null, 3, everything))).toEqual([posts[1], posts[3], posts[4]]);
    // Dropped from the index when the page found them missing.
    expect(index.newest(author, NOBODY, null, 3)).toEqual([posts[1], posts[3], posts[4]]);
    await index.close();
  });

  it('drops a post removed here at once', async () => {
    const [author] = await insertUsers(1);
    const { index, feed } = await feedWithIndex();
    const post = await insertPost(author);
    await feed.page(author, null, 1, everything);
    expect(index.newest(author, NOBODY, null, 1)).toEqual([post]);
    feed.postRemoved(post);
    expect(index.newest(author, NOBODY, null, 1)).not.toContain(post);
    await index.close();
  });

  it('reads a follow list again after followsChanged, not before the sync time', async () => {
    const [reader, author] = await insertUsers(2);
    const { index, feed } = await feedWithIndex(60_000);
    const post = await insertPost(author);
    feed.postAdded(post, author);
    expect(await feed.page(reader, null, 10, everything)).toEqual([]);
    await follow(reader, [author]);
    expect(await feed.page(reader, null, 10, everything)).toEqual([]); // the follow list is cached
    feed.followsChanged(reader);
    expect(ids(await feed.page(reader, null, 10, everything))).toEqual([post]);
    await index.close();
  });

  it('answers from the database while the index is off', async () => {
    const [author] = await insertUsers(1);
    const post = await insertPost(author);
    const feed = createHomeFeed(t.db.kysely, { caches: cacheRegistry(), maxPosts: 0, syncMs: 0 });
    await feed.start();
    expect(feed.state).toBe('off');
    expect(ids(await feed.page(author, null, 1, everything))).toEqual([post]);
  });
});

describe('the home feed through the API', () => {
  let reader: SignedInUser;
  let author: SignedInUser;
  beforeAll(async () => {
    reader = await signIn(t.app);
    author = await signIn(t.app);
    await t.app.inject({ method: 'PATCH', url: `/api/users/${author.username}/follow`, headers: reader.headers });
  });
  const home = async (query = '') =>
    (
      await t.app.inject({ method: 'GET', url: `/api/posts?feed=following&limit=3${query}`, headers: reader.headers })
    ).json() as Post[];

  it('is answered from the index once it has loaded', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/instance/health' });
    expect(health.json()).toEqual({
      status: 'ok',
      database: 'up',
      instance: t.config.instanceId,
      feedIndex: 'ready',
      storage: 'ok',
    });
    const post = await createPost(t.app, author);
    expect((await home()).map((p) => p._id)).toEqual([post._id]);
  });

  it('skips posts deleted through another instance and still fills the page', async () => {
    const posts = [];
    for (let i = 0; i < 5; i += 1) posts.unshift((await createPost(t.app, author))._id);
    await t.db.kysely.deleteFrom('posts').where('id', 'in', [posts[0], posts[2]]).execute();
    expect((await home()).map((p) => p._id)).toEqual([posts[1], posts[3], posts[4]]);
    expect((await home()).map((p) => p._id)).toEqual([posts[1], posts[3], posts[4]]);
  });

  it('drops a post deleted here at once', async () => {
    const post = await createPost(t.app, author);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/posts/${post._id}/manage`, headers: author.headers });
    expect(res.statusCode).toBe(200);
    expect((await home()).map((p) => p._id)).not.toContain(post._id);
  });
});

describe('the home feed with the default sync time', () => {
  let slow: TestApp;
  beforeAll(async () => {
    slow = await createTestApp({ HOME_FEED_SYNC_MS: '60000' });
  });
  afterAll(async () => {
    await slow.close();
  });

  it('shows a followed author at once after following and unfollowing through this process', async () => {
    const reader = await signIn(slow.app);
    const author = await signIn(slow.app);
    const post = await createPost(slow.app, author);
    const home = async () =>
      (
        await slow.app.inject({ method: 'GET', url: '/api/posts?feed=following', headers: reader.headers })
      ).json() as Post[];
    expect(await home()).toEqual([]); // the follow list is now cached for a minute
    await slow.app.inject({ method: 'PATCH', url: `/api/users/${author.username}/follow`, headers: reader.headers });
    expect((await home()).map((p) => p._id)).toEqual([post._id]);
    const next = await createPost(slow.app, author);
    expect((await home()).map((p) => p._id)).toEqual([next._id, post._id]);
    await slow.app.inject({ method: 'PATCH', url: `/api/users/${author.username}/unfollow`, headers: reader.headers });
    expect(await home()).toEqual([]);
  });

  it('walks the index: a post written elsewhere shows after the sync time, one made here at once', async () => {
    await slow.app.ctx.homeFeed.start();
    expect(slow.app.ctx.homeFeed.state).toBe('ready');
    const reader = await signIn(slow.app);
    const author = await signIn(slow.app);
    await slow.app.inject({ method: 'PATCH', url: `/api/users/${author.username}/follow`, headers: reader.headers });
    const home = async () =>
      (
        await slow.app.inject({ method: 'GET', url: '/api/posts?feed=following', headers: reader.headers })
      ).json() as Post[];
    const here = await createPost(slow.app, author);
    expect((await home()).map((p) => p._id)).toEqual([here._id]); // the first sync after loading has run
    const now = new Date().toISOString();
    const elsewhere = newId();
    await slow.db.kysely
      .insertInto('posts')
      .values({
        id: elsewhere,
        creator_id: author.id,
        message: 'm',
        image,
        media_id: null,
        tags: '[]',
        created_at: now,
        updated_at: now,
      })
      .execute();
    // The database walk would find it; the index reads other instances' posts every minute here.
    expect((await home()).map((p) => p._id)).toEqual([here._id]);
    const next = await createPost(slow.app, author);
    expect((await home()).map((p) => p._id)).toEqual([next._id, here._id]);
  });
});
