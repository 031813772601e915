/** Accounts: the token's own (`verify_credentials`), anyone's by id or name, and their statuses. */
import type { FastifyPluginAsync } from 'fastify';
import { needs } from './http';
import { toAccount, toCredentialAccount } from './mappers';
import { statusesOfPosts } from './statuses';
import { type ClientServices, type ListQuery, readListPage, sendList, siteOf, tokenUser } from './support';

type IdRoute = { Params: { id: string } };

export const accountEndpoints: FastifyPluginAsync<ClientServices> = async (app, services) => {
  const { config, users, posts } = services;

  app.get('/api/v1/accounts/verify_credentials', { preValidation: needs('read:accounts') }, async (request) =>
    toCredentialAccount(siteOf(config, request), await users.account(tokenUser(request))),
  );

  app.get<{ Querystring: { acct?: string } }>(
    '/api/v1/accounts/lookup',
    { preValidation: needs('read:accounts') },
    async (request) => {
      // `name` or `name@this.host`: there are no other servers' people here.
      const acct = (request.query.acct ?? '').replace(/^@/, '').split('@')[0];
      return toAccount(siteOf(config, request), await users.profile(tokenUser(request), acct));
    },
  );

  app.get<IdRoute>('/api/v1/accounts/:id', { preValidation: needs('read:accounts') }, async (request) =>
    toAccount(siteOf(config, request), await users.profileById(tokenUser(request), request.params.id)),
  );

  app.get<IdRoute & { Querystring: ListQuery }>(
    '/api/v1/accounts/:id/statuses',
    { preValidation: needs('read:statuses') },
    async (request, reply) => {
      const viewer = tokenUser(request);
      const site = siteOf(config, request);
      const profile = await users.profileById(viewer, request.params.id);
      const list = readListPage(request.query);
      const rows = await posts.byUser(viewer, profile.username, list.page);
      const shown = sendList(request, reply, site, list, rows, (p) => p._id);
      return statusesOfPosts(services, viewer, site, shown);
    },
  );
};
