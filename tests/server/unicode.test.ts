/** Tags and usernames are validated in the form they are stored in, and normalised (NFC, NFKC). */
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { uploadImage } from './multipart';

let t: TestApp;
let ann: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t.app);
});
afterAll(() => t.close());

const create = async (tags: string[]) =>
  t.app.inject({
    method: 'POST',
    url: '/api/posts/create',
    headers: ann.headers,
    payload: { message: 'Tags', tags, image: (await uploadImage(t.app, ann, 'post')).secure_url },
  });

describe('tags', () => {
  it('refuses a tag whose lower case is longer than 30 characters (16 × U+0130) with a 400, not a 500', async () => {
    const res = await create(['İ'.repeat(16)]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'A tag must be at most 30 characters in lower case', code: 'InvalidTags' });
    // 15 fit: 30 characters in lower case.
    expect((await create(['İ'.repeat(15)])).statusCode).toBe(201);
  });

  it('treats a decomposed and a composed spelling as one tag (NFC)', async () => {
    const post = await createPost(t.app, ann, { tags: ['e\u0301te\u0301', 'été'] });
    expect(post.tags).toEqual(['été']);
    const found = await t.app.inject({
      method: 'GET',
      url: `/api/posts/tagged?tags=${encodeURIComponent('E\u0301TE\u0301')}`,
      headers: ann.headers,
    });
    expect(found.json().map((p: { _id: string }) => p._id)).toContain(post._id);
  });
});

describe('usernames', () => {
  it('are NFKC-normalised: full-width letters sign up and are found as plain ones', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { username: 'ｗｉｄｅ_ann', email: 'wide@example.com', password: 'correct horse battery' },
    });
    expect(res.statusCode).toBe(201);
    const profile = await t.app.inject({ method: 'GET', url: '/api/users/WIDE_ANN', headers: ann.headers });
    expect(profile.json().user.username).toBe('wide_ann');
    const same = await t.app.inject({
      method: 'GET',
      url: `/api/users/${encodeURIComponent('ｗｉｄｅ_ａｎｎ')}`,
      headers: ann.headers,
    });
    expect(same.statusCode).toBe(200);
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { username: 'Wide_Ann', email: 'wide2@example.com', password: 'correct horse battery' },
    });
    expect(taken.statusCode).toBe(409);
  });

  it('refuses look-alike letters of other scripts (Cyrillic а) and U+0130', async () => {
    for (const username of ['аnn_cyr', 'İstanbul']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { username, email: `${Math.random()}@example.com`, password: 'correct horse battery' },
      });
      expect(res.statusCode, username).toBe(400);
    }
  });
});
