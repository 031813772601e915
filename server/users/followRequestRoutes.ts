/** `/api/follow-requests` (issue 70): the people waiting for the signed-in user's answer, and the answers. */
import type { FastifyPluginAsync } from 'fastify';
import { type Guards, currentUser } from '../auth/guard';
import { type PageQuery, pageQuerySchema, readPage, sendPage } from '../http/paging';
import { errors, listOf, userSearchResultSchema } from '../http/schemas';
import type { UsersService } from './service';

const requestSchema = {
  type: 'object',
  properties: {
    ...userSearchResultSchema.properties,
    requestId: { type: 'string' },
    requestedAt: { type: 'string' },
  },
} as const;
const idParams = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 36 } },
  required: ['id'],
} as const;

export const followRequestRoutes: FastifyPluginAsync<{ users: UsersService; guards: Guards }> = async (
  app,
  { users, guards },
) => {
  const { signedIn, write } = guards;

  app.get<{ Querystring: PageQuery }>(
    '/',
    {
      preValidation: signedIn,
      schema: {
        tags: ['users'],
        querystring: { type: 'object', properties: pageQuerySchema },
        response: { 200: listOf(requestSchema), ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      const page = readPage(request.query);
      const rows = await users.followRequests.list(currentUser(request), page);
      return sendPage(request, reply, page, rows, (r) => r.requestId);
    },
  );

  app.get(
    '/count',
    {
      preValidation: signedIn,
      schema: {
        tags: ['users'],
        response: { 200: { type: 'object', properties: { count: { type: 'integer' } } }, ...errors(401) },
      },
    },
    async (request) => ({ count: await users.followRequests.count(currentUser(request)) }),
  );

  for (const answer of ['approve', 'reject'] as const) {
    app.post<{ Params: { id: string } }>(
      `/:id/${answer}`,
      {
        preValidation: write,
        schema: { tags: ['users'], params: idParams, response: errors(401, 404, 429) },
      },
      async (request, reply) => {
        await users.followRequests[answer](currentUser(request), request.params.id);
        return reply.code(204).send();
      },
    );
  }
};
