/**
 * Followed tags' routes under `/api/tags` (issue 73): the viewer's list (`GET /`), one tag's state
 * (`GET /:tag`), and `PUT` / `DELETE /:tag/follow`.
 */
import type { FastifyPluginAsync } from 'fastify';
import { type Guards, currentUser } from '../auth/guard';
import { errors, listOf } from '../http/schemas';
import type { TagsService } from './service';

const tagParams = {
  type: 'object',
  properties: { tag: { type: 'string', maxLength: 200 } },
  required: ['tag'],
} as const;

const tagState = {
  type: 'object',
  properties: { name: { type: 'string' }, following: { type: 'boolean' } },
  required: ['name', 'following'],
} as const;

const followedTag = {
  type: 'object',
  properties: { name: { type: 'string' }, followedAt: { type: 'string' } },
  required: ['name', 'followedAt'],
} as const;
// The follow's id is left out: the web lists every followed tag at once (at most 100).

type TagRoute = { Params: { tag: string } };

export interface TagsRoutesOptions {
  tags: TagsService;
  guards: Guards;
}

export const tagsRoutes: FastifyPluginAsync<TagsRoutesOptions> = async (app, { tags, guards }) => {
  const { signedIn, write } = guards;

  app.get(
    '/',
    { preValidation: signedIn, schema: { tags: ['tags'], response: { 200: listOf(followedTag), ...errors(401) } } },
    async (request) => tags.list(currentUser(request)),
  );

  app.get<TagRoute>(
    '/:tag',
    {
      preValidation: signedIn,
      schema: { tags: ['tags'], params: tagParams, response: { 200: tagState, ...errors(400, 401) } },
    },
    async (request) => tags.state(currentUser(request), request.params.tag),
  );

  const followRoute = {
    preValidation: write,
    schema: { tags: ['tags'], params: tagParams, response: { 200: tagState, ...errors(400, 401, 409, 429) } },
  };
  app.put<TagRoute>('/:tag/follow', followRoute, async (request) =>
    tags.follow(currentUser(request), request.params.tag),
  );
  app.delete<TagRoute>('/:tag/follow', followRoute, async (request) =>
    tags.unfollow(currentUser(request), request.params.tag),
  );
};
