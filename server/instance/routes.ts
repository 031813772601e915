import type { FastifyPluginAsync } from 'fastify';

/** Public facts about this instance, for the contact page. */
export const instanceRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app.ctx;
  app.get('/', {
    schema: {
      tags: ['instance'],
      response: { 200: { type: 'object', properties: { name: { type: 'string' }, contactEmail: { type: 'string' } } } },
    },
  }, async () => ({ name: config.instanceName, contactEmail: config.contactEmail }));

  // For load balancers and scripts: answering means up; `feedIndex` says whether the home feed's
  // in-memory index has loaded (the benchmark waits for it).
  app.get('/health', {
    schema: {
      tags: ['instance'],
      response: { 200: { type: 'object', properties: { status: { type: 'string' }, feedIndex: { type: 'string' } } } },
    },
  }, async () => ({ status: 'ok', feedIndex: app.ctx.feedIndex.state }));
};
