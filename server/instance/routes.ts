import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config';
import type { HomeFeed } from '../posts/homeFeed';

export interface InstanceRoutesOptions {
  config: Config;
  homeFeed: Pick<HomeFeed, 'state'>;
}

/** Public facts about this instance, for the contact page. */
export const instanceRoutes: FastifyPluginAsync<InstanceRoutesOptions> = async (app, { config, homeFeed }) => {
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

  // For load balancers and scripts: answering means up; `instance` names the process that answered
  // (`INSTANCE_ID`); `feedIndex` says whether the home feed's in-memory index has loaded (the
  // benchmark waits for it).
  app.get(
    '/health',
    {
      schema: {
        tags: ['instance'],
        response: {
          200: {
            type: 'object',
            properties: { status: { type: 'string' }, instance: { type: 'string' }, feedIndex: { type: 'string' } },
          },
        },
      },
    },
    async () => ({ status: 'ok', instance: config.instanceId, feedIndex: homeFeed.state }),
  );
};
