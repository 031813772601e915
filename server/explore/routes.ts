/**
 * Explore's routes (issue 73): `GET /api/explore` (open to visitors, as the public posts it shows
 * are), and the admins' `/api/admin/explore/hidden` list, `PUT`/`DELETE …/hidden/post/:id` and
 * `…/hidden/tag/:tag`.
 */
import type { FastifyPluginAsync } from 'fastify';
import { type Guards, currentUser, requireAdmin } from '../auth/guard';
import type { Explore, PersonResult, Post, TrendingTag } from '../../lib/types';
import type { CacheRegistry } from '../cache/registry';
import { asciiJsonOf, jsonArray, replyAsciiJson } from '../http/asciiJson';
import { type PageQuery, pageQuerySchema, readPage, sendPage } from '../http/paging';
import { errors, listOf, postSchema, userSearchResultSchema } from '../http/schemas';
import type { TrendHiding } from './hiding';
import { EXPLORE_POSTS, type ExploreService } from './service';

/** Where the trending posts' next pages are. */
const POSTS_URL = '/api/explore/posts';

const trendingTagSchema = {
  type: 'object',
  properties: { tag: { type: 'string' }, people: { type: 'integer' }, posts: { type: 'integer' } },
} as const;

const exploreSchema = {
  type: 'object',
  properties: {
    posts: listOf(postSchema),
    tags: listOf(trendingTagSchema),
    people: listOf(userSearchResultSchema),
  },
} as const;

const hiddenSchema = {
  type: 'object',
  properties: { kind: { type: 'string' }, subject: { type: 'string' }, createdAt: { type: 'string' } },
} as const;

/**
 * Explore's answer as ASCII JSON: its posts from their kept texts as the feeds' pages are, its tags
 * and each person from texts held beside the shared objects the service answers with.
 */
function exploreText(caches: CacheRegistry, listText: (posts: Post[]) => string) {
  const tagsText = caches.renderings<TrendingTag[], string>({ name: 'explore_tags_json' });
  const personText = caches.renderings<PersonResult, string>({ name: 'explore_people_json' });
  return ({ posts, tags, people }: Explore): string =>
    `{"posts":${listText(posts)},"tags":${tagsText.of(tags, asciiJsonOf)},"people":${jsonArray(people, (person) =>
      personText.of(person, asciiJsonOf),
    )}}`;
}

export const exploreRoutes: FastifyPluginAsync<{
  explore: ExploreService;
  caches: CacheRegistry;
  listText: (posts: Post[]) => string;
}> = async (app, { explore, caches, listText }) => {
  const text = exploreText(caches, listText);
  const firstPage = { limit: EXPLORE_POSTS, cursor: null };
  app.get('/', { schema: { tags: ['explore'], response: { 200: exploreSchema } } }, async (request, reply) => {
    const found = await explore.explore(request.user);
    replyAsciiJson(reply, text);
    return { ...found, posts: sendPage(request, reply, firstPage, found.posts, (p) => p._id, POSTS_URL) };
  });

  // The trending posts after the first page, as the feeds' pages (keyset: the last post's id).
  app.get<{ Querystring: PageQuery }>(
    '/posts',
    {
      schema: {
        tags: ['explore'],
        querystring: { type: 'object', properties: pageQuerySchema },
        response: { 200: listOf(postSchema), ...errors(400) },
      },
    },
    async (request, reply) => {
      const page = readPage(request.query);
      const rows = await explore.trendingPage(request.user, page);
      replyAsciiJson(reply, listText);
      return sendPage(request, reply, page, rows, (p) => p._id);
    },
  );
};

export const exploreAdminRoutes: FastifyPluginAsync<{ hiding: TrendHiding; guards: Guards }> = async (
  app,
  { hiding, guards },
) => {
  const read = [...guards.signedIn, requireAdmin];
  const write = [...guards.write, requireAdmin];

  app.get(
    '/hidden',
    {
      preValidation: read,
      schema: { tags: ['moderation'], response: { 200: listOf(hiddenSchema), ...errors(401, 403) } },
    },
    async () => hiding.list(),
  );

  for (const [kind, param] of [
    ['post', 'id'],
    ['tag', 'tag'],
  ] as const) {
    const route = {
      preValidation: write,
      schema: {
        tags: ['moderation'],
        params: { type: 'object', properties: { [param]: { type: 'string', maxLength: 200 } }, required: [param] },
      },
    };
    type Route = { Params: Record<typeof param, string> };
    app.put<Route>(
      `/hidden/${kind}/:${param}`,
      { ...route, schema: { ...route.schema, response: { 200: hiddenSchema, ...errors(400, 401, 403, 404, 429) } } },
      async (request) => hiding.hide(currentUser(request), kind, request.params[param]),
    );
    app.delete<Route>(
      `/hidden/${kind}/:${param}`,
      { ...route, schema: { ...route.schema, response: { 204: { type: 'null' }, ...errors(401, 403, 404, 429) } } },
      async (request, reply) => {
        await hiding.show(currentUser(request), kind, request.params[param]);
        return reply.code(204).send();
      },
    );
  }
};
