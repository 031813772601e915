/** NUL and other control characters are refused with a 400 everywhere, on both databases (PostgreSQL cannot store NUL). */
import type { InjectOptions } from 'fastify';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { uploadImage } from './multipart';

let t: TestApp;
let ann: SignedInUser;
let postId: string;
let commentId: string;
beforeAll(async () => {
  t = await createTestApp();
  ann = await signIn(t.app);
  postId = (await createPost(t.app, ann))._id;
  const comment = await t.app.inject({
    method: 'POST',
    url: `/api/posts/${postId}/comments`,
    headers: ann.headers,
    payload: { message: 'First' },
  });
  commentId = comment.json().commentId;
});
afterAll(() => t.close());

const NUL = 'a\u0000b';

describe('control characters', () => {
  it('refuses NUL in sign-up and sign-in fields without a session', async () => {
    for (const payload of [
      { username: 'nul_user', email: `${NUL}@example.com`, password: 'correct horse battery' },
      { username: NUL, email: 'nul@example.com', password: 'correct horse battery' },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(/must not contain control characters/);
    }
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: `${NUL}@example.com`, password: 'whatever password' },
    });
    expect(login.statusCode).toBe(400);
    expect(login.json()).toEqual({ message: 'email must not contain control characters', code: 'ControlCharacter' });
  });

  it('refuses a new password with a control character, and still compares a sent one', async () => {
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { username: 'bell_user', email: 'bell@example.com', password: 'correct\u0007horse' },
    });
    expect(signup.statusCode).toBe(400);
    expect(signup.json().message).toBe('Password must not contain control characters');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: ann.email, password: `${ann.password}\u0000` },
    });
    expect(login.statusCode).toBe(401);
  });

  it('refuses NUL in every body field, query and path parameter of a signed-in user', async () => {
    const image = (await uploadImage(t.app, ann, 'post')).secure_url;
    const avatar = (await uploadImage(t.app, ann, 'avatar')).secure_url;
    const requests: InjectOptions[] = [
      { method: 'POST', url: '/api/posts/create', payload: { message: NUL, tags: ['x'], image } },
      { method: 'POST', url: '/api/posts/create', payload: { message: 'Hi', tags: [NUL], image } },
      { method: 'POST', url: '/api/posts/create', payload: { message: 'Hi', tags: ['x'], image: `${image}\u0000` } },
      { method: 'PATCH', url: `/api/posts/${postId}/manage`, payload: { post: { message: NUL } } },
      { method: 'POST', url: `/api/posts/${postId}/comments`, payload: { message: NUL } },
      { method: 'PATCH', url: `/api/posts/${postId}/comments/like`, payload: { commentId: `${commentId}\u0000` } },
      { method: 'PATCH', url: '/api/users/updateProfile', payload: { description: NUL } },
      { method: 'PATCH', url: '/api/users/updateProfile', payload: { avatar: `${avatar}\u0000` } },
      { method: 'PATCH', url: '/api/users/updateAccount', payload: { username: NUL, password: ann.password } },
      {
        method: 'PATCH',
        url: '/api/users/updateAccount',
        payload: { newEmail: `${NUL}@x.org`, password: ann.password },
      },
      { method: 'GET', url: '/api/posts/tagged?tags=a%00b' },
      { method: 'GET', url: '/api/posts?feed=all&cursor=a%00b' },
      { method: 'GET', url: '/api/users/a%00b' },
      { method: 'GET', url: '/api/users/a%00b/posts' },
      { method: 'GET', url: '/api/users/a%00b/followers' },
      { method: 'GET', url: '/api/users/a%00b/following' },
      { method: 'PATCH', url: '/api/users/a%00b/follow' },
      { method: 'PATCH', url: '/api/users/a%00b/unfollow' },
      { method: 'GET', url: '/api/posts/a%00b' },
      { method: 'GET', url: '/api/posts/a%00b/comments' },
      { method: 'POST', url: '/api/posts/a%00b/comments', payload: { message: 'Hi' } },
      { method: 'PATCH', url: '/api/posts/a%00b/like' },
      { method: 'DELETE', url: `/api/posts/${postId}/comments/a%00b` },
      { method: 'GET', url: '/api/users/a%01b' },
      { method: 'GET', url: '/api/posts/tagged?tags=a%0Ab' },
    ];
    for (const request of requests) {
      const res = await t.app.inject({ ...request, headers: ann.headers });
      expect(res.statusCode, `${request.method} ${request.url} ${JSON.stringify(request.payload)}`).toBe(400);
      expect(res.json().code).toBe('ControlCharacter');
    }
    // The answer names the field, a nested one by its path.
    for (const [request, field] of [
      [requests[1], 'tags[0]'],
      [requests[3], 'post.message'],
      [requests[10], 'tags'],
      [requests[15], 'username'],
    ] as const) {
      const res = await t.app.inject({ ...request, headers: ann.headers });
      expect(res.json().message).toBe(`${field} must not contain control characters`);
    }
    // Nothing was changed by the refused writes.
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/getLoggedUser', headers: ann.headers });
    expect(me.json()).toMatchObject({ username: ann.username, description: '', avatar: null, postsCount: 1 });
  });

  it('keeps line breaks and tabs in messages and descriptions', async () => {
    const post = await createPost(t.app, ann, { message: 'Two\nlines\tand a tab' });
    expect(post.message).toBe('Two\nlines\tand a tab');
    const comment = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${post._id}/comments`,
      headers: ann.headers,
      payload: { message: 'One\r\nTwo' },
    });
    expect(comment.statusCode).toBe(201);
    const profile = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateProfile',
      headers: ann.headers,
      payload: { description: 'Hello\nthere' },
    });
    expect(profile.json().user.description).toBe('Hello\nthere');
  });
});
