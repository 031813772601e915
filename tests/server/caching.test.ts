/** Every API answer is `Cache-Control: private, no-store`; media files stay cacheable. */
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

let t: TestApp;
let ann: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t.app);
});
afterAll(() => t.close());

describe('Cache-Control', () => {
  it('is private, no-store on answers with personal data, on errors and for visitors', async () => {
    const post = await createPost(t.app, ann);
    const urls = [
      '/api/auth/getLoggedUser',
      `/api/users/${ann.username}`,
      `/api/users/${ann.username}/posts`,
      '/api/posts?feed=following',
      `/api/posts/${post._id}`,
      '/api/posts/tagged?tags=sun',
      '/api/no-such-route',
    ];
    for (const url of urls) {
      for (const headers of [ann.headers, {}]) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        expect(res.headers['cache-control'], `${url} ${res.statusCode}`).toBe('private, no-store');
      }
    }
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: ann.email, password: ann.password },
    });
    expect(login.headers['cache-control']).toBe('private, no-store');
    const media = await t.app.inject({ method: 'GET', url: post.image });
    expect(media.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
