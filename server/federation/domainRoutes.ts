/** `/api/admin/domains` (issue 32, item 6): the blocked domains, admins only; every change logged. */
import type { FastifyPluginAsync } from 'fastify';
import { type Guards, currentUser, requireAdmin } from '../auth/guard';
import { errors } from '../http/schemas';
import { DOMAIN_MAX } from './domainName';
import type { DomainBlocksInput, DomainBlocksService } from './domainBlocks';

const text = { type: 'string' } as const;
const blockSchema = {
  type: 'object',
  properties: { domain: text, severity: text, createdAt: text, updatedAt: text },
} as const;

export interface DomainRoutesOptions {
  domainBlocks: DomainBlocksService;
  guards: Guards;
}

export const domainRoutes: FastifyPluginAsync<DomainRoutesOptions> = async (app, { domainBlocks, guards }) => {
  const read = [...guards.signedIn, requireAdmin];
  const write = [...guards.write, requireAdmin];

  app.get(
    '/',
    {
      preValidation: read,
      schema: { tags: ['moderation'], response: { 200: { type: 'array', items: blockSchema }, ...errors(401, 403) } },
    },
    async () => domainBlocks.list(),
  );

  // No body schema: the service checks each field and answers its own messages (400).
  app.post<{ Body: DomainBlocksInput | undefined }>(
    '/',
    {
      preValidation: write,
      schema: { tags: ['moderation'], response: { 200: blockSchema, 201: blockSchema, ...errors(400, 401, 403, 429) } },
    },
    async (request, reply) => {
      const { block, created } = await domainBlocks.block(currentUser(request), request.body ?? {});
      return reply.code(created ? 201 : 200).send(block);
    },
  );

  app.delete<{ Params: { domain: string }; Body: { note?: unknown } | undefined }>(
    '/:domain',
    {
      preValidation: write,
      schema: {
        tags: ['moderation'],
        params: {
          type: 'object',
          properties: { domain: { type: 'string', maxLength: DOMAIN_MAX } },
          required: ['domain'],
        },
        response: { 204: { type: 'null' }, ...errors(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await domainBlocks.unblock(currentUser(request), request.params.domain, request.body?.note);
      return reply.code(204).send();
    },
  );
};
