import type { Comment, Post, UserSummary } from '../../lib/types';
import { newId } from '../../server/domain/ids';
import { nextPageUrl } from '../../server/http/paging';
import { HOME_FEED_MERGE_MAX, homeFeedQueries } from '../../server/posts/homeFeed/queries';
import { createPost, userRow, walkPages } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { uploadImage } from './multipart';

let t: TestApp;
let owner: SignedInUser;
let image: string;
const postIds: string[] = [];
beforeAll(async () => {
  // Some rows are written straight into the database, as another instance would: the feed reads them at once.
  t = await createTestApp({ HOME_FEED_SYNC_MS: '0' });
  owner = await signIn(t.app);
  image = (await uploadImage(t.app, owner, 'post')).secure_url;
  for (let i = 0; i < 23; i += 1) {
    postIds.unshift(
      (await createPost(t.app, owner, { image, tags: i % 2 ? ['odd', 'all'] : ['even', 'all'], message: `post ${i}` }))
        ._id,
    );
  }
});
afterAll(async () => {
  await t.close();
});

const addPost = async () => {
  await createPost(t.app, owner, { image, tags: ['all', 'odd', 'even'] });
};

describe('keyset paging', () => {
  it.each([
    ['everyone', '/api/posts?feed=all&limit=5'],
    ['home feed', '/api/posts?feed=following&limit=5'],
    ['user posts', () => `/api/users/${owner.username}/posts?limit=5`],
    ['tag (any of two)', '/api/posts/tagged?tags=odd,even&limit=5'],
    ['tag (one, any case)', '/api/posts/tagged?tags=ALL&limit=5'],
  ])('%s: every item exactly once, newest first, with inserts in between', async (_name, url) => {
    // Every post of this file is the owner's and carries "odd" or "even".
    const rows = await t.db.kysely.selectFrom('posts').select('id').orderBy('id', 'desc').execute();
    const expected = rows.map((r) => r.id);
    expect(expected.slice(-postIds.length)).toEqual(postIds);
    const first = typeof url === 'function' ? url() : url;
    const { items, pages } = await walkPages<Post>(t.app, owner, first, addPost);
    // Posts added while paging are newer than the first page: a walk never sees them.
    expect(items.map((p) => p._id)).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 5));
  });

  it('the last page carries no Link header', async () => {
    for (let i = 0; i < 3; i += 1) await createPost(t.app, owner, { image, tags: ['lastpage'] });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/posts/tagged?tags=lastpage&limit=3',
      headers: owner.headers,
    });
    expect(res.json()).toHaveLength(3);
    expect(res.headers.link).toBeUndefined();
  });

  it('comments of a post page the same way', async () => {
    const post = await createPost(t.app, owner, { image, tags: ['odd'] });
    const ids: string[] = [];
    for (let i = 0; i < 11; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/posts/${post._id}/comments`,
        headers: owner.headers,
        payload: { message: `c${i}` },
      });
      ids.unshift(res.json().commentId);
    }
    const addComment = async () => {
      await t.app.inject({
        method: 'POST',
        url: `/api/posts/${post._id}/comments`,
        headers: owner.headers,
        payload: { message: 'late' },
      });
    };
    const { items } = await walkPages<Comment>(t.app, owner, `/api/posts/${post._id}/comments?limit=4`, addComment);
    expect(items.map((c) => c.commentId)).toEqual(ids);
  });

  it('followers page the same way', async () => {
    const star = await signIn(t.app);
    const fans: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      const fan = await signIn(t.app);
      await t.app.inject({ method: 'PATCH', url: `/api/users/${star.username}/follow`, headers: fan.headers });
      fans.unshift(fan.username);
    }
    const { items } = await walkPages<UserSummary>(t.app, star, `/api/users/${star.username}/followers?limit=3`);
    expect(items.map((u) => u.username)).toEqual(fans);
  });
});

describe('home feed of someone following very many people', () => {
  it('walks the same way past the merge limit', async () => {
    const reader = await signIn(t.app);
    const k = t.db.kysely;
    const now = new Date().toISOString();
    // Bulk rows straight into the database (`userRow`).
    const creators = Array.from({ length: HOME_FEED_MERGE_MAX + 5 }, (_, i) => userRow(`bulk${i}`));
    await k.insertInto('users').values(creators).execute();
    await k
      .insertInto('follows')
      .values(creators.map((c) => ({ id: newId(), follower_id: reader.id, followee_id: c.id, created_at: now })))
      .execute();
    const expected: string[] = [];
    for (const creator of creators.slice(0, 9)) {
      const id = newId();
      await k
        .insertInto('posts')
        .values({
          id,
          creator_id: creator.id,
          message: 'm',
          image: image,
          media_id: null,
          tags: '["bulk"]',
          created_at: now,
          updated_at: now,
        })
        .execute();
      expected.unshift(id);
    }
    const { items } = await walkPages<Post>(t.app, reader, '/api/posts?feed=following&limit=4');
    expect(items.map((p) => p._id)).toEqual(expected);
  });
});

describe('home feed past its walk window', () => {
  it('merges per-creator heads below the window and still returns every post once, in order', async () => {
    const reader = await signIn(t.app);
    const writer = await signIn(t.app);
    await t.app.inject({ method: 'PATCH', url: `/api/users/${writer.username}/follow`, headers: reader.headers });
    const mine: string[] = [];
    for (let i = 0; i < 5; i += 1)
      mine.unshift((await createPost(t.app, writer, { image: (await uploadImage(t.app, writer)).secure_url }))._id);
    // Many newer posts by someone the reader does not follow: a small window sees none of the reader's.
    for (let i = 0; i < 6; i += 1) await addPost();
    const expected = [
      ...mine,
      ...(await t.db.kysely.selectFrom('posts').select('id').where('creator_id', '=', reader.id).execute()).map(
        (r) => r.id,
      ),
    ];
    for (const walkWindow of [3, 1_000]) {
      const feed = homeFeedQueries(t.db.kysely);
      const ids = (await feed.homeFeedPosts(reader.id, null, 4, walkWindow)).map((p) => p.id);
      expect(ids).toEqual(expected.slice(0, 4));
      const next = (await feed.homeFeedPosts(reader.id, ids[3], 4, walkWindow)).map((p) => p.id);
      expect(next).toEqual(expected.slice(4, 8));
    }
  });
});

describe('next page links', () => {
  it('keep the path and the other parameters, and set cursor and limit', () => {
    expect(nextPageUrl('/api/posts/tagged?tags=a%2Cb&cursor=old&limit=5', 'new', 5)).toBe(
      '/api/posts/tagged?tags=a%2Cb&cursor=new&limit=5',
    );
    expect(nextPageUrl('/api/users/ann/posts', 'c1', 12)).toBe('/api/users/ann/posts?cursor=c1&limit=12');
    expect(nextPageUrl('/api/users/a>b/posts?x=1', 'c', 3)).toBe('/api/users/a%3Eb/posts?x=1&cursor=c&limit=3');
  });
});
