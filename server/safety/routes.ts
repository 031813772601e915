/** Blocks and mutes under `/api/users`: the four actions and the signed-in user's two lists. */
import type { FastifyPluginAsync } from 'fastify';
import { REMOTE_USERNAME_MAX } from '../../lib/limits';
import { type Guards, currentUser } from '../auth/guard';
import { type PageQuery, pageQuerySchema, readPage, sendPage } from '../http/paging';
import { errors, listOf, profileSchema, userSummarySchema } from '../http/schemas';
import type { SafetyService } from './service';

const usernameParams = {
  type: 'object',
  properties: { username: { type: 'string', maxLength: REMOTE_USERNAME_MAX } },
  required: ['username'],
} as const;
const profileResponse = { type: 'object', properties: { user: profileSchema } } as const;

type UsernameRoute = { Params: { username: string } };

export interface SafetyRoutesOptions {
  safety: SafetyService;
  guards: Guards;
}

export const safetyRoutes: FastifyPluginAsync<SafetyRoutesOptions> = async (app, { safety, guards }) => {
  const { signedIn, write } = guards;

  // Static paths: they win over `/:username/...`.
  for (const [path, relation] of [
    ['/me/blocks', 'blocks'],
    ['/me/mutes', 'mutes'],
  ] as const) {
    app.get<{ Querystring: PageQuery }>(
      path,
      {
        preValidation: signedIn,
        schema: {
          tags: ['users'],
          querystring: { type: 'object', properties: pageQuerySchema },
          response: { 200: listOf(userSummarySchema), ...errors(400, 401) },
        },
      },
      async (request, reply) => {
        const page = readPage(request.query);
        const rows = await safety.list(currentUser(request), relation, page);
        return sendPage(request, reply, page, rows, (u) => u.relationId);
      },
    );
  }

  for (const action of ['block', 'unblock', 'mute', 'unmute'] as const) {
    app.patch<UsernameRoute>(
      `/:username/${action}`,
      {
        preValidation: write,
        schema: {
          tags: ['users'],
          params: usernameParams,
          response: { 200: profileResponse, ...errors(400, 401, 404, 429) },
        },
      },
      async (request) => ({ user: await safety[action](currentUser(request), request.params.username) }),
    );
  }
};
