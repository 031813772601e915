/**
 * The read model (`posts/postViews.ts`, `comments/commentViews.ts`, `mastodon/statusViews.ts`): a
 * row version every reader shares is rendered once, and answers from those renderings are the same
 * text as fresh ones; the reader's own fields (reaction, counts without blocked people) go on top.
 */
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

let t: TestApp;
let ann: SignedInUser;
let bob: SignedInUser;
const AWKWARD = ['quote " and backslash \\', 'emoji 🙂 and été', 'line separators \u2028\u2029 inside'];

beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t.app);
  bob = await signIn(t.app);
  for (const message of AWKWARD) await createPost(t.app, ann, { message });
});
afterAll(() => t.close());

const rendered = (name: string) => t.app.ctx.caches.caches.get(name)!;
const get = (url: string, user: SignedInUser) => t.app.inject({ method: 'GET', url, headers: user.headers });

describe('the read model', () => {
  it('renders a post shared between readers once, as the same text a fresh one is written as', async () => {
    const fresh = (await get('/api/posts?feed=all', bob)).body;
    // The second read keeps the rows (`sharedRows.ts`), the third is answered from what they rendered.
    await get('/api/posts?feed=all', bob);
    const hitsBefore = rendered('post_views').counts.hits;
    const held = (await get('/api/posts?feed=all', bob)).body;
    expect(rendered('post_views').counts.hits - hitsBefore).toBe(AWKWARD.length);
    expect(held).toBe(fresh);
    expect(JSON.parse(held).map((p: { message: string }) => p.message)).toEqual([...AWKWARD].reverse());
  });

  it("puts the reader's reaction on top: a like is a new rendering for the liker, not for others", async () => {
    const [post] = (await get('/api/posts?feed=all', bob)).json();
    const like = await t.app.inject({
      method: 'PATCH',
      url: `/api/posts/${post._id}/like`,
      headers: bob.headers,
    });
    expect(like.statusCode).toBe(200);
    const [mine] = (await get('/api/posts?feed=all', bob)).json();
    expect(mine).toMatchObject({ _id: post._id, likesCount: 1, myReaction: 'like' });
    const [theirs] = (await get('/api/posts?feed=all', ann)).json();
    expect(theirs).toMatchObject({ _id: post._id, likesCount: 1, myReaction: null });
  });

  it("gives a reader with blocks a shared copy counting comments without the blocked people's", async () => {
    const [cy, dan] = [await signIn(t.app), await signIn(t.app)];
    const [post] = (await get('/api/posts?feed=all', bob)).json();
    for (const user of [ann, dan]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/posts/${post._id}/comments`,
        headers: user.headers,
        payload: { message: 'A comment' },
      });
      expect(res.statusCode).toBe(201);
    }
    const block = await t.app.inject({ method: 'PATCH', url: `/api/users/${dan.username}/block`, headers: cy.headers });
    expect(block.statusCode).toBe(200);
    const count = async (user: SignedInUser) =>
      (await get('/api/posts?feed=all', user)).json().find((p: { _id: string }) => p._id === post._id).commentsCount;
    expect(await count(bob)).toBe(post.commentsCount + 2);
    for (let read = 0; read < 2; read++) expect(await count(cy)).toBe(post.commentsCount + 1);
    // From the third read on, cy's page takes the recounted copy the read before made.
    const hitsBefore = rendered('post_recounts').counts.hits;
    expect(await count(cy)).toBe(post.commentsCount + 1);
    expect(rendered('post_recounts').counts.hits).toBeGreaterThan(hitsBefore);
    expect(await count(bob)).toBe(post.commentsCount + 2);
  });

  it("writes a shared comment's JSON once, the same text as a fresh one", async () => {
    const [post] = (await get('/api/posts?feed=all', bob)).json();
    const url = `/api/posts/${post._id}/comments`;
    const fresh = (await get(url, bob)).body;
    // The page is kept at its second read, its rows at theirs (`sharedRows.ts`).
    for (let read = 0; read < 2; read++) await get(url, bob);
    const hitsBefore = rendered('comment_views').counts.hits;
    expect((await get(url, bob)).body).toBe(fresh);
    expect(rendered('comment_views').counts.hits).toBeGreaterThan(hitsBefore);
  });

  it('forgets every rendering when everything is forgotten', async () => {
    expect(rendered('post_views').size()).toBeGreaterThan(0);
    t.app.ctx.caches.forgetEverything();
    for (const name of ['post_views', 'post_json', 'post_recounts', 'comment_views', 'comment_json'])
      expect(rendered(name).size(), name).toBe(0);
  });
});
