import type { FastifyPluginAsync } from 'fastify';
import { type Guards, requireAdmin } from '../auth/guard';
import { errors } from '../http/schemas';
import type { OverviewService } from './service';

export interface OverviewRoutesOptions {
  overview: OverviewService;
  guards: Guards;
}

const count = { type: 'integer' } as const;
const overviewSchema = {
  type: 'object',
  properties: {
    people: { type: 'object', properties: { total: count, active30d: count, signedUpThisWeek: count } },
    activity: {
      type: 'array',
      items: { type: 'object', properties: { day: { type: 'string' }, posts: count, comments: count } },
    },
    openReports: count,
    mediaBytes: count,
    queues: {
      type: 'object',
      properties: {
        imageJobs: { type: 'object', properties: { running: count, queued: count } },
        mailOutbox: count,
      },
    },
    instances: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          healthy: { type: 'boolean' },
          lastSeen: { type: 'string' },
          startedAt: { type: 'string' },
          database: { type: 'string' },
          self: { type: 'boolean' },
        },
      },
    },
  },
} as const;

/** `GET /api/admin/overview`: admins only. */
export const overviewRoutes: FastifyPluginAsync<OverviewRoutesOptions> = async (app, { overview, guards }) => {
  app.get(
    '/overview',
    {
      preValidation: [...guards.signedIn, requireAdmin],
      schema: { tags: ['moderation'], response: { 200: overviewSchema, ...errors(401, 403) } },
    },
    async () => overview.overview(),
  );
};
