/** `/api/people/suggest`: whom an `@` being typed may name (the web composer's and comment field's list). */
import type { FastifyPluginAsync } from 'fastify';
import { type Guards, currentUser } from '../auth/guard';
import { rateLimit } from '../http/rateLimits';
import { errors, listOf, userSearchResultSchema } from '../http/schemas';
import { USER_SEARCH_MAX } from './repository';
import type { UsersService } from './service';

export interface PeopleRoutesOptions {
  users: UsersService;
  guards: Guards;
  suggestionsPerMinute: number;
}

/** How many suggestions a request gets unless it asks for another number (1 to USER_SEARCH_MAX). */
export const SUGGEST_LIMIT_DEFAULT = 8;

export const peopleRoutes: FastifyPluginAsync<PeopleRoutesOptions> = async (
  app,
  { users, guards, suggestionsPerMinute },
) => {
  // Counted per user: a list that follows every keystroke is the one read a client repeats this fast.
  const perUser = rateLimit(app, 'suggestions', suggestionsPerMinute, (r) => r.user?.id ?? null);

  app.get<{ Querystring: { q: string; limit: number } }>(
    '/suggest',
    {
      preValidation: [...guards.signedIn, perUser],
      schema: {
        tags: ['users'],
        querystring: {
          type: 'object',
          // The service says what a bad `q` is; this only bounds what it reads.
          properties: {
            q: { type: 'string', maxLength: 500 },
            limit: { type: 'integer', minimum: 1, maximum: USER_SEARCH_MAX, default: SUGGEST_LIMIT_DEFAULT },
          },
          required: ['q'],
        },
        response: { 200: listOf(userSearchResultSchema), ...errors(400, 401, 429) },
      },
    },
    async (request) => users.suggest(currentUser(request), request.query.q, request.query.limit),
  );
};
