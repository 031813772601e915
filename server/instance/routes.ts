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
};
