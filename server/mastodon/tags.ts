/**
 * Followed hashtags in the client API (issue 73, item 5): `GET /api/v1/followed_tags` (paged with
 * Link, newest followed first), `GET /api/v1/tags/:name` and `POST /api/v1/tags/:name/follow` and
 * `/unfollow`, each answering Mastodon's Tag with `following`.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TagState } from '../tags/service';
import { needs } from './http';
import { type ClientServices, type ListQuery, readListPage, sendList, siteOf, tokenUser } from './support';

type NameRoute = { Params: { name: string } };

/** Mastodon's Tag: the name as written, its page here, no usage history kept. */
export const toTag = (site: string, tag: TagState) => ({
  name: tag.name,
  url: `${site}/tagged/${encodeURIComponent(tag.name)}`,
  history: [] as unknown[],
  following: tag.following,
});

export const tagEndpoints: FastifyPluginAsync<ClientServices> = async (app, services) => {
  const { config, tags, limits } = services;
  const write = [needs('write:follows'), limits.writes];

  app.get<{ Querystring: ListQuery }>(
    '/api/v1/followed_tags',
    { preValidation: needs('read:follows') },
    async (request, reply) => {
      const viewer = tokenUser(request);
      const site = siteOf(config, request);
      const list = readListPage(request.query);
      const rows = await tags.page(viewer, list.page);
      return sendList(request, reply, site, list, rows, (r) => r.id).map((r) =>
        toTag(site, { name: r.name, following: true }),
      );
    },
  );

  app.get<NameRoute>('/api/v1/tags/:name', { preValidation: needs('read:follows') }, async (request) =>
    toTag(siteOf(config, request), await tags.state(tokenUser(request), request.params.name)),
  );

  for (const [path, act] of [
    ['follow', tags.follow],
    ['unfollow', tags.unfollow],
  ] as const)
    app.post<NameRoute>(`/api/v1/tags/:name/${path}`, { preValidation: write }, async (request) =>
      toTag(siteOf(config, request), await act(tokenUser(request), request.params.name)),
    );
};
