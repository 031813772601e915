/** Test data through the public API: reactions, comments and follows made as a client makes them. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { SignedInUser } from './helpers';

async function expectOk(res: LightMyRequestResponse, what: string) {
  if (res.statusCode >= 300) throw new Error(`${what} failed: ${res.statusCode} ${res.body}`);
  return res;
}

export const reactToPost = async (app: FastifyInstance, user: SignedInUser, postId: string, kind: 'like' | 'dislike') =>
  expectOk(await app.inject({ method: 'PATCH', url: `/api/posts/${postId}/${kind}`, headers: user.headers }), kind);

export async function commentOn(app: FastifyInstance, user: SignedInUser, postId: string, message: string) {
  const res = await expectOk(
    await app.inject({
      method: 'POST',
      url: `/api/posts/${postId}/comments`,
      headers: user.headers,
      payload: { message },
    }),
    'comment',
  );
  return res.json<{ commentId: string }>().commentId;
}

export const reactToComment = async (
  app: FastifyInstance,
  user: SignedInUser,
  postId: string,
  commentId: string,
  kind: 'like' | 'dislike',
) =>
  expectOk(
    await app.inject({
      method: 'PATCH',
      url: `/api/posts/${postId}/comments/${kind}`,
      headers: user.headers,
      payload: { commentId },
    }),
    `comment ${kind}`,
  );

export const follow = async (app: FastifyInstance, user: SignedInUser, username: string) =>
  expectOk(
    await app.inject({ method: 'PATCH', url: `/api/users/${username}/follow`, headers: user.headers }),
    'follow',
  );
