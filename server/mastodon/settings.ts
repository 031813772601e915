/**
 * What apps read at start and Posts has no more of: preferences (the default audience; the rest fixed),
 * markers (notifications: marking them read), and no custom emojis, filters or lists.
 */
import { MASTODON_VISIBILITY } from '../../lib/audience';
import type { FastifyPluginAsync } from 'fastify';
import { nowIso } from '../domain/ids';
import { needs } from './http';
import { type ClientServices, tokenUser } from './support';

export const settingsEndpoints: FastifyPluginAsync<ClientServices> = async (app, { notifications, limits, users }) => {
  app.get('/api/v1/preferences', { preValidation: needs('read:accounts') }, async (request) => {
    const account = await users.account(tokenUser(request));
    return {
      'posting:default:visibility': MASTODON_VISIBILITY[account.defaultAudience],
      'posting:default:sensitive': false,
      // The language their statuses are given (issue 75: mappers.ts); null when they chose none.
      'posting:default:language': account.language ?? null,
      'reading:expand:media': 'default',
      'reading:expand:spoilers': false,
    };
  });

  // Posts has none of these; an app that asks gets an honest empty list rather than a 404.
  app.get('/api/v1/custom_emojis', async () => []);
  for (const path of ['/api/v1/filters', '/api/v2/filters'])
    app.get(path, { preValidation: needs('read:filters') }, async () => []);
  app.get('/api/v1/lists', { preValidation: needs('read:lists') }, async () => []);

  // Only the notifications marker exists: it is the notifications' read state (the home one is not kept).
  app.get('/api/v1/markers', { preValidation: needs('read:statuses') }, async () => ({}));
  app.post<{ Body: { notifications?: { last_read_id?: unknown } } & Record<string, unknown> }>(
    '/api/v1/markers',
    { preValidation: [needs('write:statuses'), limits.writes] },
    async (request) => {
      const body = request.body ?? {};
      const lastRead = body.notifications?.last_read_id ?? body['notifications[last_read_id]'];
      if (lastRead === undefined) return {};
      await notifications.markRead(tokenUser(request), lastRead);
      return { notifications: { last_read_id: lastRead, version: 1, updated_at: nowIso() } };
    },
  );
};
