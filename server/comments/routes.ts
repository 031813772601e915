/**
 * The routes under `/api/posts` that concern comments: a post with its newest comments, a post's
 * comments, adding, deleting and reacting to one. (The posts' own routes are in posts/routes.ts;
 * comments depend on posts, never the other way.)
 */
import type { FastifyPluginAsync } from 'fastify';
import { PAGE_LIMIT_DEFAULT } from '../../lib/limits';
import { type Guards, currentUser } from '../auth/guard';
import { replyAsciiJson } from '../http/asciiJson';
import { type PageQuery, pageQuerySchema, readPage, sendPage } from '../http/paging';
import { commentSchema, errors, listOf, postWithCommentsSchema, reactionCountsSchema } from '../http/schemas';
import type { CommentsService } from './service';

const idParams = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } as const;
const postIdParams = {
  type: 'object',
  properties: { postId: { type: 'string', maxLength: 64 } },
  required: ['postId'],
} as const;
const pageQuery = { type: 'object', properties: pageQuerySchema } as const;
const commentReactionResponse = {
  type: 'object',
  properties: { commentId: { type: 'string' }, ...reactionCountsSchema.properties },
} as const;

type IdRoute = { Params: { id: string } };
type PostIdRoute = { Params: { postId: string } };

export interface CommentsRoutesOptions {
  comments: CommentsService;
  guards: Guards;
}

export const commentsRoutes: FastifyPluginAsync<CommentsRoutesOptions> = async (app, { comments, guards }) => {
  const { signedIn, write } = guards;

  app.get<IdRoute>(
    '/:id',
    {
      preValidation: signedIn,
      schema: { tags: ['posts'], params: idParams, response: { 200: postWithCommentsSchema, ...errors(401, 404) } },
    },
    async (request, reply) => {
      const post = await comments.postWithComments(currentUser(request), request.params.id, PAGE_LIMIT_DEFAULT);
      // Older comments are the comments list's next page: the client follows the Link from here.
      const page = { limit: PAGE_LIMIT_DEFAULT, cursor: null };
      replyAsciiJson(reply, comments.withCommentsText);
      return {
        ...post,
        comments: sendPage(request, reply, page, post.comments, (c) => c.commentId, `/api/posts/${post._id}/comments`),
      };
    },
  );

  for (const kind of ['like', 'dislike'] as const) {
    app.patch<PostIdRoute & { Body: { commentId?: string } }>(
      `/:postId/comments/${kind}`,
      {
        preValidation: write,
        schema: {
          tags: ['comments'],
          params: postIdParams,
          body: { type: 'object', properties: { commentId: { type: 'string' }, userId: { type: 'string' } } },
          response: { 200: commentReactionResponse, ...errors(400, 401, 404, 429) },
        },
      },
      async (request) => comments.react(currentUser(request), request.params.postId, request.body?.commentId, kind),
    );
  }

  app.get<IdRoute & { Querystring: PageQuery }>(
    '/:id/comments',
    {
      preValidation: signedIn,
      schema: {
        tags: ['comments'],
        params: idParams,
        querystring: pageQuery,
        response: { 200: listOf(commentSchema), ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const page = readPage(request.query);
      const rows = await comments.list(currentUser(request), request.params.id, page);
      replyAsciiJson(reply, comments.listText);
      return sendPage(request, reply, page, rows, (c) => c.commentId);
    },
  );

  app.post<IdRoute & { Body: { message?: string } }>(
    '/:id/comments',
    {
      preValidation: write,
      schema: {
        tags: ['comments'],
        params: idParams,
        body: { type: 'object', properties: { message: { type: 'string' }, userId: { type: 'string' } } },
        response: { 201: commentSchema, ...errors(400, 401, 404, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await comments.add(currentUser(request), request.params.id, request.body?.message)),
  );

  app.delete<PostIdRoute & { Params: { commentId: string } }>(
    '/:postId/comments/:commentId',
    {
      preValidation: write,
      schema: {
        tags: ['comments'],
        params: {
          type: 'object',
          properties: { postId: { type: 'string', maxLength: 64 }, commentId: { type: 'string', maxLength: 64 } },
        },
        response: {
          200: { type: 'object', properties: { commentId: { type: 'string' } } },
          ...errors(401, 403, 404, 429),
        },
      },
    },
    async (request) => comments.remove(currentUser(request), request.params.postId, request.params.commentId),
  );
};
