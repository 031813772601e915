import type { FastifyPluginAsync } from 'fastify';
import { REMOTE_USERNAME_MAX } from '../../lib/limits';
import { type Guards, currentUser } from '../auth/guard';
import { type PageQuery, pageQuerySchema, readPage, sendPage } from '../http/paging';
import { errors, listOf, profileSchema, userSchema, userSearchResultSchema } from '../http/schemas';
import type { AccountInput, ProfileInput, UsersService } from './service';

const usernameParams = {
  type: 'object',
  properties: { username: { type: 'string', maxLength: REMOTE_USERNAME_MAX } },
  required: ['username'],
} as const;
const profileResponse = { type: 'object', properties: { user: profileSchema } } as const;
const userResponse = { type: 'object', properties: { user: userSchema } } as const;
const nullableString = { type: ['string', 'null'] } as const;

type UsernameRoute = { Params: { username: string } };

export interface UsersRoutesOptions {
  users: UsersService;
  guards: Guards;
}

export const usersRoutes: FastifyPluginAsync<UsersRoutesOptions> = async (app, { users: service, guards }) => {
  const { signedIn, write } = guards;

  // A static path: it wins over `/:username`, which is why `search` is a reserved username (lib/limits.ts).
  app.get<{ Querystring: { q: string } }>(
    '/search',
    {
      preValidation: signedIn,
      schema: {
        tags: ['users'],
        querystring: {
          type: 'object',
          properties: { q: { type: 'string', maxLength: 500 } },
          required: ['q'],
        },
        response: { 200: listOf(userSearchResultSchema), ...errors(400, 401) },
      },
    },
    async (request) => service.search(currentUser(request), request.query.q),
  );

  app.get<UsernameRoute>(
    '/:username',
    {
      preValidation: signedIn,
      schema: { tags: ['users'], params: usernameParams, response: { 200: profileResponse, ...errors(401, 404) } },
    },
    async (request) => ({ user: await service.profile(currentUser(request), request.params.username) }),
  );

  for (const side of ['followers', 'following'] as const) {
    app.get<UsernameRoute & { Querystring: PageQuery }>(
      `/:username/${side}`,
      {
        preValidation: signedIn,
        schema: {
          tags: ['users'],
          params: usernameParams,
          querystring: { type: 'object', properties: pageQuerySchema },
          response: { 200: listOf(userSearchResultSchema), ...errors(400, 401, 404) },
        },
      },
      async (request, reply) => {
        const page = readPage(request.query);
        const rows = await service.follows(currentUser(request), request.params.username, side, page);
        return sendPage(request, reply, page, rows, (u) => u.followId);
      },
    );
  }

  // The spec's client sends `{ userId }`; identity comes from the session, so there is no body schema.
  app.patch<UsernameRoute>(
    '/:username/follow',
    {
      preValidation: write,
      schema: {
        tags: ['users'],
        params: usernameParams,
        response: { 200: profileResponse, ...errors(400, 401, 404, 429) },
      },
    },
    async (request) => ({ user: await service.follow(currentUser(request), request.params.username) }),
  );

  app.patch<UsernameRoute>(
    '/:username/unfollow',
    {
      preValidation: write,
      schema: { tags: ['users'], params: usernameParams, response: { 200: profileResponse, ...errors(401, 404, 429) } },
    },
    async (request) => ({ user: await service.unfollow(currentUser(request), request.params.username) }),
  );

  // Removes a follower of the signed-in user without blocking them (issue 70).
  app.delete<UsernameRoute>(
    '/:username/follower',
    {
      preValidation: write,
      schema: { tags: ['users'], params: usernameParams, response: errors(401, 404, 429) },
    },
    async (request, reply) => {
      await service.removeFollowerNamed(currentUser(request), request.params.username);
      return reply.code(204).send();
    },
  );

  app.patch<{ Body: AccountInput }>(
    '/updateAccount',
    {
      preValidation: guards.accountWrite,
      schema: {
        tags: ['users'],
        body: {
          type: 'object',
          properties: {
            username: { type: 'string' },
            email: { type: 'string' },
            newEmail: { type: 'string' },
            password: { type: 'string' },
            newPassword: { type: 'string' },
          },
        },
        response: { 200: userResponse, ...errors(400, 401, 403, 409, 429) },
      },
    },
    async (request) => ({ user: await service.updateAccount(currentUser(request), request.body ?? {}) }),
  );

  app.patch<{ Body: ProfileInput }>(
    '/updateProfile',
    {
      preValidation: write,
      schema: {
        tags: ['users'],
        body: {
          type: 'object',
          properties: {
            email: { type: 'string' },
            avatar: nullableString,
            banner: nullableString,
            description: { type: 'string' },
            displayName: nullableString,
            // Each `{ name, value }` is checked by the service, which says which one is wrong.
            fields: { type: 'array', maxItems: 16 },
            approveFollowers: { type: 'boolean' },
            discoverable: { type: 'boolean' },
            // Checked by the service, which says what is wrong with it.
            defaultAudience: {},
            language: {},
          },
        },
        response: { 200: userResponse, ...errors(400, 401, 403, 429) },
      },
    },
    async (request) => ({ user: await service.updateProfile(currentUser(request), request.body ?? {}) }),
  );
};
