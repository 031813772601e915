/**
 * Explore in the client API (issue 73), Mastodon's shapes: `GET /api/v1/trends/tags` (Tag with its
 * history of days), `GET /api/v1/trends/statuses` (Status), open without a token as Mastodon's are,
 * and `GET /api/v2/suggestions` (Suggestion: `source` and `sources`, and the Account). The lists
 * come from the kept trends (`explore/`): `offset` and `limit` page them.
 */
import type { FastifyPluginAsync } from 'fastify';
import { InvalidError } from '../domain/errors';
import { needs } from './http';
import { toAccount } from './mappers';
import { type ClientServices, siteOf, tokenUser } from './support';

type OffsetQuery = { Querystring: { limit?: string | number; offset?: string | number } };

/** `limit` (bounded by `max`) and `offset` of a query, Mastodon's way: a bad one is a 400. */
function offsetPage(query: OffsetQuery['Querystring'], fallback: number, max: number) {
  const number = (name: string, value: string | number | undefined, otherwise: number, least: number) => {
    if (value === undefined || value === '') return otherwise;
    const n = Number(value);
    if (!Number.isInteger(n) || n < least) throw new InvalidError(`${name} must be a whole number from ${least}`);
    return n;
  };
  return {
    limit: Math.min(number('limit', query.limit, fallback, 1), max),
    offset: number('offset', query.offset, 0, 0),
  };
}

export const trendEndpoints: FastifyPluginAsync<ClientServices> = async (app, services) => {
  const { config, trends } = services;

  app.get<OffsetQuery>('/api/v1/trends/tags', async (request) => {
    const site = siteOf(config, request);
    const { limit, offset } = offsetPage(request.query, 10, 20);
    return (await trends.trendingTags(limit, offset)).map(({ tag, history }) => ({
      name: tag,
      url: `${site}/tagged/${encodeURIComponent(tag)}`,
      history: history.map((d) => ({
        day: String(d.day / 1000),
        uses: String(d.uses),
        accounts: String(d.accounts),
      })),
    }));
  });

  app.get<OffsetQuery>('/api/v1/trends/statuses', async (request, reply) => {
    const site = siteOf(config, request);
    const { limit, offset } = offsetPage(request.query, 20, 40);
    const shown = await trends.trendingPosts(request.user, limit, offset);
    const answer = await services.statusViews.listJson(site, shown);
    return reply.type('application/json; charset=utf-8').send(answer);
  });

  app.get<OffsetQuery>('/api/v2/suggestions', { preValidation: needs('read:accounts') }, async (request) => {
    const site = siteOf(config, request);
    const { limit } = offsetPage(request.query, 40, 80);
    const { source, people } = await trends.suggestions(tokenUser(request), limit);
    // Mastodon's sources: "friends_of_friends" (its `source` "past_interactions") for people followed by
    // those one follows; "most_interactions" ("global") for the recently active.
    const [legacy, sources] =
      source === 'friendsOfFriends' ? ['past_interactions', ['friends_of_friends']] : ['global', ['most_interactions']];
    return people.map((facts) => ({ source: legacy, sources, account: toAccount(site, facts) }));
  });
};
