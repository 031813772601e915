/**
 * Moving an account (issue 76) under `/api/users`: `GET /me/aliases`, `POST /me/aliases`
 * (`{ address }`), `DELETE /me/aliases?uri=…`, and `POST /me/move` (`{ address }`).
 */
import type { FastifyPluginAsync } from 'fastify';
import { ACCOUNT_ADDRESS_MAX } from '../../lib/limits';
import { type Guards, currentUser } from '../auth/guard';
import { errors, movedToSchema } from '../http/schemas';
import type { AccountMoves } from './service';

const aliasesResponse = {
  type: 'object',
  properties: {
    aliases: {
      type: 'array',
      items: {
        type: 'object',
        properties: { uri: { type: 'string' }, address: { type: ['string', 'null'] } },
        required: ['uri', 'address'],
      },
    },
  },
  required: ['aliases'],
} as const;
// Lengths are the service's to refuse, with its message: the schema only wants text.
const addressBody = {
  type: 'object',
  properties: { address: { type: 'string' } },
  required: ['address'],
} as const;

export interface MovingRoutesOptions {
  moves: AccountMoves;
  guards: Guards;
}

export const movingRoutes: FastifyPluginAsync<MovingRoutesOptions> = async (app, { moves, guards }) => {
  app.get(
    '/me/aliases',
    {
      preValidation: guards.signedIn,
      schema: { tags: ['users'], response: { 200: aliasesResponse, ...errors(401, 403) } },
    },
    async (request) => ({ aliases: await moves.aliases(currentUser(request)) }),
  );

  app.post<{ Body: { address: string } }>(
    '/me/aliases',
    {
      preValidation: guards.write,
      schema: {
        tags: ['users'],
        summary: 'Name another account (name@host or its actor address) as this one’s: alsoKnownAs',
        body: addressBody,
        response: { 200: aliasesResponse, ...errors(400, 401, 403, 404, 429, 503) },
      },
    },
    async (request) => ({ aliases: await moves.addAlias(currentUser(request), request.body.address) }),
  );

  app.delete<{ Querystring: { uri: string } }>(
    '/me/aliases',
    {
      preValidation: guards.write,
      schema: {
        tags: ['users'],
        querystring: {
          type: 'object',
          properties: { uri: { type: 'string', maxLength: ACCOUNT_ADDRESS_MAX } },
          required: ['uri'],
        },
        response: { 200: aliasesResponse, ...errors(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({ aliases: await moves.removeAlias(currentUser(request), request.query.uri) }),
  );

  app.post<{ Body: { address: string } }>(
    '/me/move',
    {
      // As a password change: only from a session that is still live.
      preValidation: guards.accountWrite,
      schema: {
        tags: ['users'],
        summary: 'Move this account to another that names it among its aliases',
        body: addressBody,
        response: {
          200: { type: 'object', properties: { movedTo: movedToSchema }, required: ['movedTo'] },
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request) => ({ movedTo: await moves.moveTo(currentUser(request), request.body.address) }),
  );
};
