import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config';
import { DATABASE_RETRY_AFTER_SECONDS } from '../db/errors';
import type { HomeFeed } from '../posts/homeFeed';
import type { RedisState } from './redisFallback';
import type { StorageState } from './storageHealth';

export interface InstanceRoutesOptions {
  config: Config;
  homeFeed: Pick<HomeFeed, 'state'>;
  /** Whether the database answers a read now (`databaseAnswers`). */
  databaseAnswers: () => Promise<boolean>;
  /** With `REDIS_URL`: whether Redis answers now (`redisFallback.check`); null without Redis. */
  redisState: (() => Promise<RedisState>) | null;
  /** `full` after a write failed for want of space (until one succeeds), or while little is left. */
  storageState: () => Promise<StorageState>;
}

/** Public facts about this instance, for the contact page. */
export const instanceRoutes: FastifyPluginAsync<InstanceRoutesOptions> = async (
  app,
  { config, homeFeed, databaseAnswers, redisState, storageState },
) => {
  app.get(
    '/',
    {
      schema: {
        tags: ['instance'],
        response: {
          200: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              contactEmail: { type: 'string' },
              maxPostImages: { type: 'integer' },
            },
          },
        },
      },
    },
    // `maxPostImages`: the composer reads it when a person first adds photos (issue 71).
    async () => ({ name: config.instanceName, contactEmail: config.contactEmail, maxPostImages: config.maxPostImages }),
  );

  // For load balancers and scripts: 200 when this instance can serve, 503 (`database: "down"`) while
  // the database does not answer, so a balancer sends the traffic elsewhere. `instance` names the
  // process that answered (`INSTANCE_ID`); `feedIndex` says whether the home feed's in-memory index
  // has loaded (the benchmark waits for it). `redis` (only with `REDIS_URL`) is `down` while Redis
  // does not answer, refused or hung (a command timed out): the instance still serves, counting
  // rate limits alone, so it stays 200 / `ok` — every instance shares the one Redis, and a balancer
  // that dropped them all for it would serve nobody; monitoring reads the field. `storage` is `full`
  // after a write failed for want of space (507) until one succeeds, or while the data folder has
  // little room left (`storageHealth.ts`): reads still work, so it too stays 200.
  const health = {
    type: 'object',
    properties: {
      status: { type: 'string' },
      database: { type: 'string' },
      instance: { type: 'string' },
      feedIndex: { type: 'string' },
      redis: { type: 'string', enum: ['up', 'down'] },
      storage: { type: 'string', enum: ['ok', 'full'] },
      // 503 only, as every 5xx answer (`http/requestIds.ts`).
      requestId: { type: 'string' },
    },
  };
  app.get(
    '/health',
    { schema: { tags: ['instance'], response: { 200: health, 503: health } } },
    async (request, reply) => {
      const [up, redis, storage] = await Promise.all([databaseAnswers(), redisState?.(), storageState()]);
      if (!up) reply.code(503).header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return {
        status: up ? 'ok' : 'unavailable',
        database: up ? 'up' : 'down',
        instance: config.instanceId,
        feedIndex: homeFeed.state,
        ...(redis ? { redis } : {}),
        storage,
        ...(up ? {} : { requestId: request.id }),
      };
    },
  );
};
