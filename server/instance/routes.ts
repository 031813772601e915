import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config';
import { DATABASE_RETRY_AFTER_SECONDS } from '../db/errors';
import type { HomeFeed } from '../posts/homeFeed';

export interface InstanceRoutesOptions {
  config: Config;
  homeFeed: Pick<HomeFeed, 'state'>;
  /** Whether the database answers a read now (`databaseAnswers`). */
  databaseAnswers: () => Promise<boolean>;
}

/** Public facts about this instance, for the contact page. */
export const instanceRoutes: FastifyPluginAsync<InstanceRoutesOptions> = async (
  app,
  { config, homeFeed, databaseAnswers },
) => {
  app.get(
    '/',
    {
      schema: {
        tags: ['instance'],
        response: {
          200: { type: 'object', properties: { name: { type: 'string' }, contactEmail: { type: 'string' } } },
        },
      },
    },
    async () => ({ name: config.instanceName, contactEmail: config.contactEmail }),
  );

  // For load balancers and scripts: 200 when this instance can serve, 503 (`database: "down"`) while
  // the database does not answer, so a balancer sends the traffic elsewhere. `instance` names the
  // process that answered (`INSTANCE_ID`); `feedIndex` says whether the home feed's in-memory index
  // has loaded (the benchmark waits for it).
  const health = {
    type: 'object',
    properties: {
      status: { type: 'string' },
      database: { type: 'string' },
      instance: { type: 'string' },
      feedIndex: { type: 'string' },
      // 503 only, as every 5xx answer (`http/requestIds.ts`).
      requestId: { type: 'string' },
    },
  };
  app.get(
    '/health',
    { schema: { tags: ['instance'], response: { 200: health, 503: health } } },
    async (request, reply) => {
      const up = await databaseAnswers();
      if (!up) reply.code(503).header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return {
        status: up ? 'ok' : 'unavailable',
        database: up ? 'up' : 'down',
        instance: config.instanceId,
        feedIndex: homeFeed.state,
        ...(up ? {} : { requestId: request.id }),
      };
    },
  );
};
