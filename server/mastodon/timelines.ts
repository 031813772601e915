/**
 * The timelines (home, public, a tag's; and the bookmarks), the client API's hottest answers: written from JSON bytes
 * made once per post and per author (`statusViews.ts`), and registered apart from the bodies'
 * parsers (`routes.ts`), so a GET passes no multipart hooks.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Post } from '../../lib/types';
import type { AuthUser } from '../domain/types';
import { needs } from './http';
import type { PostOrigin } from '../posts/repository';
import { type ClientServices, type ListQuery, readListPage, sendList, siteOf, tokenUser, truthy } from './support';

type TimelineRoute = { Querystring: ListQuery & { local?: string; remote?: string }; Params: Record<string, string> };

/** Mastodon's `local` and `remote` flags: `local` wins when both are set, as in Mastodon. */
const originOf = (query: TimelineRoute['Querystring']): PostOrigin =>
  truthy(query.local) ? 'local' : truthy(query.remote) ? 'remote' : 'any';

export const timelineEndpoints: FastifyPluginAsync<ClientServices> = async (app, services) => {
  const { config, posts } = services;

  const timeline =
    (
      read: (
        viewer: AuthUser,
        request: FastifyRequest<TimelineRoute>,
        page: ReturnType<typeof readListPage>['page'],
      ) => Promise<Post[]>,
      /** False where the list is not in the posts' order (bookmarks): `min_id`/`since_id` are then not read. */
      inPostOrder = true,
    ) =>
    async (request: FastifyRequest<TimelineRoute>, reply: FastifyReply) => {
      const viewer = tokenUser(request);
      const site = siteOf(config, request);
      const list = readListPage(request.query);
      const rows = await read(viewer, request, list.page);
      const shown = sendList(
        request,
        reply,
        site,
        inPostOrder ? list : { ...list, newerThan: null },
        rows,
        (p) => p._id,
      );
      const answer = await services.statusViews.listJson(site, shown, `${viewer.id}|${request.url}`);
      return reply.type('application/json; charset=utf-8').send(answer);
    };

  app.get<TimelineRoute>(
    '/api/v1/timelines/home',
    { preValidation: needs('read:statuses') },
    timeline((viewer, _r, page) => posts.feed(viewer, 'following', page)),
  );
  // "Everyone": posts from elsewhere are never in it, so `local=true` and without it list the same,
  // and `remote=true` lists none.
  app.get<TimelineRoute>(
    '/api/v1/timelines/public',
    { preValidation: needs('read:statuses') },
    timeline((viewer, r, page) =>
      originOf(r.query) === 'remote' ? Promise.resolve([]) : posts.feed(viewer, 'all', page),
    ),
  );
  // The viewer's saved posts (issue 73), newest saved first: in the order they were saved.
  app.get<TimelineRoute>(
    '/api/v1/bookmarks',
    { preValidation: needs('read:bookmarks') },
    timeline((viewer, _r, page) => services.saves.list(viewer, page), false),
  );
  app.get<TimelineRoute>(
    '/api/v1/timelines/tag/:tag',
    { preValidation: needs('read:statuses') },
    timeline((viewer, r, page) => posts.tagged(viewer, r.params.tag, page, originOf(r.query))),
  );
};
