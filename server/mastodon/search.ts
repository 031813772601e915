/** `GET /api/v2/search`: people by the start of their name, a hashtag and its statuses. */
import type { FastifyPluginAsync } from 'fastify';
import { tagError } from '../../lib/validation';
import { normalizeTag } from '../../lib/tags';
import { needs } from './http';
import { toTag } from './tags';
import { statusesOfPosts } from './statuses';
import { type ClientServices, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, accountsFor, siteOf, tokenUser } from './support';

type SearchQuery = { q?: string; type?: string; limit?: string };

export const searchEndpoints: FastifyPluginAsync<ClientServices> = async (app, services) => {
  const { config, users, posts, tags } = services;

  app.get<{ Querystring: SearchQuery }>('/api/v2/search', { preValidation: needs('read:search') }, async (request) => {
    const viewer = tokenUser(request);
    const site = siteOf(config, request);
    const q = (request.query.q ?? '').trim();
    const type = request.query.type;
    const limit = Math.min(Math.max(Number(request.query.limit) || LIST_LIMIT_DEFAULT, 1), LIST_LIMIT_MAX);
    const result = { accounts: [] as unknown[], hashtags: [] as unknown[], statuses: [] as unknown[] };
    if (!q) return result;
    const name = q.replace(/^@/, '').split('@')[0];
    if ((!type || type === 'accounts') && !q.startsWith('#') && /^[A-Za-z0-9_.]+$/.test(name)) {
      const found = (await users.search(viewer, name)).slice(0, limit);
      const accountOf = accountsFor(users, viewer, site);
      result.accounts = await Promise.all(found.map((p) => accountOf(p.username)));
    }
    const tag = normalizeTag(q);
    if (!q.startsWith('@') && tagError(tag) === null) {
      const tagged = await posts.tagged(viewer, tag, { cursor: null, limit });
      if (tagged.length > 0 && (!type || type === 'hashtags'))
        result.hashtags = [toTag(site, await tags.state(viewer, tag))];
      if (!type || type === 'statuses')
        result.statuses = await statusesOfPosts(services, viewer, site, tagged.slice(0, limit));
    }
    return result;
  });
};
