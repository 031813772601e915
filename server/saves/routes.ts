/**
 * Saved posts' routes under `/api/posts` (issue 73): `PUT` and `DELETE /:id/save`, and the viewer's
 * list, `GET /saved`, paged as the feeds.
 */
import type { FastifyPluginAsync } from 'fastify';
import { type Guards, currentUser } from '../auth/guard';
import { type PageQuery, pageQuerySchema, readPage, sendPage } from '../http/paging';
import { errors, listOf, postSchema } from '../http/schemas';
import type { SavesService } from './service';

const idParams = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } as const;

type IdRoute = { Params: { id: string } };

export interface SavesRoutesOptions {
  saves: SavesService;
  guards: Guards;
}

export const savesRoutes: FastifyPluginAsync<SavesRoutesOptions> = async (app, { saves, guards }) => {
  const { signedIn, write } = guards;

  app.get<{ Querystring: PageQuery }>(
    '/saved',
    {
      preValidation: signedIn,
      schema: {
        tags: ['posts'],
        querystring: { type: 'object', properties: pageQuerySchema },
        response: { 200: listOf(postSchema), ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      const page = readPage(request.query);
      const rows = await saves.list(currentUser(request), page);
      return sendPage(request, reply, page, rows, (p) => p._id);
    },
  );

  const saveRoute = {
    preValidation: write,
    schema: { tags: ['posts'], params: idParams, response: { 200: postSchema, ...errors(401, 404, 429) } },
  };
  app.put<IdRoute>('/:id/save', saveRoute, async (request) => saves.save(currentUser(request), request.params.id));
  app.delete<IdRoute>('/:id/save', saveRoute, async (request) => saves.unsave(currentUser(request), request.params.id));
};
