/** The posts' own routes under `/api/posts`; those about comments (and a post with its comments) are comments/routes.ts. */
import type { FastifyPluginAsync } from 'fastify';
import { REMOTE_USERNAME_MAX } from '../../lib/limits';
import { type Guards, currentUser } from '../auth/guard';
import { replyAsciiJson } from '../http/asciiJson';
import { type PageQuery, pageQuerySchema, readPage, sendPage } from '../http/paging';
import { errors, listOf, postSchema, reactionCountsSchema, userSearchResultSchema } from '../http/schemas';
import type { PostInput, PostsService } from './service';

const idParams = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } as const;
const postBody = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    image: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 100 },
    alt: { type: 'string' },
    sensitive: { type: 'boolean' },
    spoiler: { type: 'string' },
    // Checked by readImageText, readAudience and ownPostImages, which say what is wrong with them.
    crop: {},
    audience: {},
    images: {},
    creator: {},
    creatorImage: {},
    creatorName: {},
  },
} as const;

type IdRoute = { Params: { id: string } };

export interface PostsRoutesOptions {
  posts: PostsService;
  guards: Guards;
}

export const postsRoutes: FastifyPluginAsync<PostsRoutesOptions> = async (app, { posts, guards }) => {
  const { signedIn, write } = guards;

  app.get<{ Querystring: PageQuery & { feed?: 'following' | 'all' } }>(
    '/',
    {
      preValidation: signedIn,
      schema: {
        tags: ['posts'],
        querystring: {
          type: 'object',
          properties: {
            ...pageQuerySchema,
            feed: { type: 'string', enum: ['following', 'all'], default: 'following' },
          },
        },
        response: { 200: listOf(postSchema), ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      const page = readPage(request.query);
      const rows = await posts.feed(currentUser(request), request.query.feed ?? 'following', page);
      replyAsciiJson(reply, posts.listText);
      return sendPage(request, reply, page, rows, (p) => p._id);
    },
  );

  app.get<{ Querystring: PageQuery & { tags: string } }>(
    '/tagged',
    {
      preValidation: signedIn,
      schema: {
        tags: ['posts'],
        querystring: {
          type: 'object',
          properties: { ...pageQuerySchema, tags: { type: 'string', maxLength: 400 } },
          required: ['tags'],
        },
        response: { 200: listOf(postSchema), ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      const page = readPage(request.query);
      const rows = await posts.tagged(currentUser(request), request.query.tags, page);
      replyAsciiJson(reply, posts.listText);
      return sendPage(request, reply, page, rows, (p) => p._id);
    },
  );

  app.post<{ Body: PostInput }>(
    '/create',
    {
      preValidation: write,
      schema: { tags: ['posts'], body: postBody, response: { 201: postSchema, ...errors(400, 401, 429) } },
    },
    async (request, reply) => reply.code(201).send(await posts.create(currentUser(request), request.body ?? {})),
  );

  app.patch<IdRoute & { Body: { post?: PostInput } }>(
    '/:id/manage',
    {
      preValidation: write,
      schema: {
        tags: ['posts'],
        params: idParams,
        body: { type: 'object', properties: { post: postBody } },
        response: { 200: postSchema, ...errors(400, 401, 403, 404, 429) },
      },
    },
    async (request) => posts.edit(currentUser(request), request.params.id, request.body?.post ?? {}),
  );

  app.delete<IdRoute>(
    '/:id/manage',
    {
      preValidation: write,
      schema: {
        tags: ['posts'],
        params: idParams,
        response: { 200: { type: 'object', properties: { _id: { type: 'string' } } }, ...errors(401, 403, 404, 429) },
      },
    },
    async (request) => posts.remove(currentUser(request), request.params.id),
  );

  // Who likes the post (issue 68, item 29): newest like first, paged with Link like every list.
  app.get<IdRoute & { Querystring: PageQuery }>(
    '/:id/likers',
    {
      preValidation: signedIn,
      schema: {
        tags: ['posts'],
        params: idParams,
        querystring: { type: 'object', properties: pageQuerySchema },
        response: { 200: listOf(userSearchResultSchema), ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const page = readPage(request.query);
      const rows = await posts.likersList(currentUser(request), request.params.id, page);
      return sendPage(request, reply, page, rows, (u) => u._id);
    },
  );

  for (const kind of ['like', 'dislike'] as const) {
    app.patch<IdRoute>(
      `/:id/${kind}`,
      {
        preValidation: write,
        schema: {
          tags: ['posts'],
          params: idParams,
          response: { 200: reactionCountsSchema, ...errors(401, 404, 429) },
        },
      },
      async (request) => posts.react(currentUser(request), request.params.id, kind),
    );
  }
};

const usernameParams = {
  type: 'object',
  properties: { username: { type: 'string', maxLength: REMOTE_USERNAME_MAX } },
  required: ['username'],
} as const;

type UsernameRoute = { Params: { username: string } };

/** `GET /api/users/:username/posts`: a profile's posts (registered under `/api/users`). */
export const userPostsRoutes: FastifyPluginAsync<PostsRoutesOptions> = async (app, { posts, guards }) => {
  const { signedIn } = guards;
  app.get<UsernameRoute & { Querystring: PageQuery }>(
    '/:username/posts',
    {
      preValidation: signedIn,
      schema: {
        tags: ['users'],
        params: usernameParams,
        querystring: { type: 'object', properties: pageQuerySchema },
        response: { 200: listOf(postSchema), ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const page = readPage(request.query);
      const rows = await posts.byUser(currentUser(request), request.params.username, page);
      replyAsciiJson(reply, posts.listText);
      return sendPage(request, reply, page, rows, (p) => p._id);
    },
  );
};
