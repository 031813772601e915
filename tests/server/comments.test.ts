import type { Comment } from '../../lib/types';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

let t: TestApp;
let admin: SignedInUser;
let author: SignedInUser;
let commenter: SignedInUser;
let stranger: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app); // first account
  author = await signIn(t.app);
  commenter = await signIn(t.app);
  stranger = await signIn(t.app);
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

const commentsCount = async (postId: string) =>
  (await t.db.kysely.selectFrom('posts').select('comments_count').where('id', '=', postId).executeTakeFirstOrThrow())
    .comments_count;

describe('add and list', () => {
  it('adds a trimmed comment from the session user and counts it', async () => {
    const post = await createPost(t.app, author);
    const res = await inject(commenter, 'POST', `/api/posts/${post._id}/comments`, {
      message: '  Nice!  ',
      userId: stranger.id,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: 'Nice!',
      creator: commenter.username,
      likesCount: 0,
      dislikesCount: 0,
      myReaction: null,
    });
    expect(await commentsCount(post._id)).toBe(1);
    const list = await inject(author, 'GET', `/api/posts/${post._id}/comments`);
    expect(list.json()).toHaveLength(1);
  });

  it.each([
    [{ message: '' }, 'Please write a comment'],
    [{ message: '    ' }, 'Please write a comment'],
    [{}, 'Please write a comment'],
    [{ message: 'x'.repeat(256) }, 'Comment must be at most 255 characters'],
  ])('refuses %j', async (payload, message) => {
    const post = await createPost(t.app, author);
    const res = await inject(commenter, 'POST', `/api/posts/${post._id}/comments`, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await commentsCount(post._id)).toBe(0);
  });

  it('answers 404 for a missing post and 401 without a session', async () => {
    const missing = '0190d5c6-0000-7000-8000-000000000000';
    expect((await inject(commenter, 'POST', `/api/posts/${missing}/comments`, { message: 'hi' })).statusCode).toBe(404);
    expect((await inject(commenter, 'GET', `/api/posts/${missing}/comments`)).statusCode).toBe(404);
    expect((await inject(commenter, 'GET', '/api/posts/not-an-id/comments')).statusCode).toBe(404);
    const post = await createPost(t.app, author);
    // A post without comments has an empty list, not a 404.
    const empty = await inject(commenter, 'GET', `/api/posts/${post._id}/comments`);
    expect([empty.statusCode, empty.json()]).toEqual([200, []]);
    expect((await inject(null, 'POST', `/api/posts/${post._id}/comments`, { message: 'hi' })).statusCode).toBe(401);
    expect((await inject(null, 'GET', `/api/posts/${post._id}/comments`)).statusCode).toBe(401);
  });
});

describe('comment reactions', () => {
  it('like and dislike toggle and share one reaction per user', async () => {
    const post = await createPost(t.app, author);
    const comment: Comment = (
      await inject(commenter, 'POST', `/api/posts/${post._id}/comments`, { message: 'hey' })
    ).json();
    const like = await inject(author, 'PATCH', `/api/posts/${post._id}/comments/like`, {
      commentId: comment.commentId,
      userId: stranger.id,
    });
    expect(like.json()).toEqual({ commentId: comment.commentId, likesCount: 1, dislikesCount: 0, myReaction: 'like' });
    const dislike = await inject(author, 'PATCH', `/api/posts/${post._id}/comments/dislike`, {
      commentId: comment.commentId,
    });
    expect(dislike.json()).toEqual({
      commentId: comment.commentId,
      likesCount: 0,
      dislikesCount: 1,
      myReaction: 'dislike',
    });
    const again = await inject(author, 'PATCH', `/api/posts/${post._id}/comments/dislike`, {
      commentId: comment.commentId,
    });
    expect(again.json().myReaction).toBeNull();
    await inject(author, 'PATCH', `/api/posts/${post._id}/comments/like`, { commentId: comment.commentId });
    const list = (await inject(author, 'GET', `/api/posts/${post._id}/comments`)).json();
    expect(list[0]).toMatchObject({ likesCount: 1, myReaction: 'like' });
  });

  it('answers 400 without a commentId, 404 for a comment of another post, 401 without a session', async () => {
    const post = await createPost(t.app, author);
    const other = await createPost(t.app, author);
    const comment: Comment = (
      await inject(commenter, 'POST', `/api/posts/${other._id}/comments`, { message: 'x' })
    ).json();
    expect((await inject(author, 'PATCH', `/api/posts/${post._id}/comments/like`, {})).statusCode).toBe(400);
    expect(
      (await inject(author, 'PATCH', `/api/posts/${post._id}/comments/like`, { commentId: comment.commentId }))
        .statusCode,
    ).toBe(404);
    expect(
      (await inject(null, 'PATCH', `/api/posts/${other._id}/comments/like`, { commentId: comment.commentId }))
        .statusCode,
    ).toBe(401);
    expect(
      (await inject(null, 'PATCH', `/api/posts/${other._id}/comments/dislike`, { commentId: comment.commentId }))
        .statusCode,
    ).toBe(401);
  });
});

describe('delete', () => {
  async function setup() {
    const post = await createPost(t.app, author);
    const comment: Comment = (
      await inject(commenter, 'POST', `/api/posts/${post._id}/comments`, { message: 'bye' })
    ).json();
    return { post, comment };
  }

  it.each(['commenter', 'author', 'admin'] as const)('the %s may delete it', async (who) => {
    const { post, comment } = await setup();
    const user = { commenter, author, admin }[who];
    const res = await inject(user, 'DELETE', `/api/posts/${post._id}/comments/${comment.commentId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ commentId: comment.commentId });
    expect(await commentsCount(post._id)).toBe(0);
  });

  it('a stranger gets 403 and the comment stays', async () => {
    const { post, comment } = await setup();
    const res = await inject(stranger, 'DELETE', `/api/posts/${post._id}/comments/${comment.commentId}`);
    expect(res.statusCode).toBe(403);
    expect(await commentsCount(post._id)).toBe(1);
    expect(
      await t.db.kysely.selectFrom('comments').select('id').where('id', '=', comment.commentId).executeTakeFirst(),
    ).toBeDefined();
  });

  it('answers 404 for a missing comment and 401 without a session', async () => {
    const { post, comment } = await setup();
    expect(
      (await inject(author, 'DELETE', `/api/posts/${post._id}/comments/0190d5c6-0000-7000-8000-000000000000`))
        .statusCode,
    ).toBe(404);
    expect((await inject(null, 'DELETE', `/api/posts/${post._id}/comments/${comment.commentId}`)).statusCode).toBe(401);
  });
});
