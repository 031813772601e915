/**
 * A post's `#hashtags` are its tags (issue 68, item 4), by the same rule the client API and the
 * web use (lib/textEntities): added after the given tags while there is room, each once; one the tag
 * rule refuses (too long, a character tags do not take) stays text. A new message adds its
 * hashtags on an edit.
 */
import { TAG_MAX, TAGS_PER_POST_MAX } from '../../lib/limits';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { uploadImage } from './multipart';

let t: TestApp;
let ann: SignedInUser;

beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t.app, { username: 'ann' });
});
afterAll(async () => {
  await t.close();
});

async function create(message: string, tags: string[]) {
  const image = (await uploadImage(t.app, ann, 'post')).secure_url;
  return t.app.inject({
    method: 'POST',
    url: '/api/posts/create',
    headers: ann.headers,
    payload: { message, tags, image },
  });
}

describe("a post's hashtags", () => {
  it('are added to its tags after the given ones, each once; the ones tags cannot be stay text', async () => {
    const long = 'a'.repeat(TAG_MAX + 1);
    const res = await create(`#Sunset by the #sea, #beach again, #foo·bar #${long} #123 it's`, ['beach']);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().tags).toEqual(['beach', 'Sunset', 'sea']);
    const tagged = await t.app.inject({ method: 'GET', url: '/api/posts/tagged?tags=sea', headers: ann.headers });
    expect((tagged.json() as { _id: string }[]).map((p) => p._id)).toContain(res.json()._id);
  });

  it('count as the tag a post needs; with none at all the post is refused as before', async () => {
    const only = await create('Only #hashtags here', []);
    expect(only.statusCode, only.body).toBe(201);
    expect(only.json().tags).toEqual(['hashtags']);
    expect((await create('No tag at all', [])).statusCode).toBe(400);
  });

  it('fill the tags up to the most a post has; the rest stay text', async () => {
    const many = Array.from({ length: TAGS_PER_POST_MAX + 5 }, (_, i) => `#t${i}`).join(' ');
    const res = await create(many, ['first']);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().tags).toHaveLength(TAGS_PER_POST_MAX);
    expect(res.json().tags.slice(0, 2)).toEqual(['first', 't0']);
  });

  it('of a new message join the kept tags on an edit', async () => {
    const post = (await create('A walk', ['walk'])).json() as { _id: string };
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/posts/${post._id}/manage`,
      headers: ann.headers,
      payload: { post: { message: 'A walk in the #rain' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().tags).toEqual(['walk', 'rain']);
  });
});
