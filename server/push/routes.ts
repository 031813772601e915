/**
 * The web app's Web Push endpoints (issue 74): the instance's VAPID public key, and the signed-in
 * session's subscription (one per session: one browser), created or replaced, its kinds changed,
 * deleted. When the instance has pushes off, each answers 404 `PushDisabled`.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { type Guards, currentUser } from '../auth/guard';
import { NotFoundError } from '../domain/errors';
import { errors } from '../http/schemas';
import { PUSH_KINDS, type PushAlerts } from './kinds';
import { checkAlerts, checkPolicy } from './input';
import type { PushOwner } from './repository';
import type { PushService } from './service';

export const PUSH_DISABLED = 'Push notifications are turned off on this instance';

/** Every kind, when the web app names none. */
const EVERY_KIND = Object.fromEntries(PUSH_KINDS.map((kind) => [kind, true])) as PushAlerts;

const subscriptionSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    endpoint: { type: 'string' },
    alerts: { type: 'object', properties: Object.fromEntries(PUSH_KINDS.map((kind) => [kind, { type: 'boolean' }])) },
    policy: { type: 'string' },
    serverKey: { type: 'string' },
  },
} as const;

const anyObject = { type: 'object' } as const;

interface SubscriptionBody {
  endpoint?: unknown;
  keys?: unknown;
  alerts?: unknown;
  policy?: unknown;
}

export const pushRoutes: FastifyPluginAsync<{ push: PushService | null; guards: Guards }> = async (
  app,
  { push, guards },
) => {
  const on = (): PushService => {
    if (!push) throw new NotFoundError(PUSH_DISABLED, 'PushDisabled');
    return push;
  };
  const ownerOf = (request: FastifyRequest): PushOwner => {
    const user = currentUser(request);
    return { userId: user.id, sessionId: user.sessionId };
  };
  const tags = ['push'];

  app.get(
    '/key',
    {
      schema: {
        tags,
        response: { 200: { type: 'object', properties: { publicKey: { type: 'string' } } }, ...errors(404) },
      },
    },
    async () => ({ publicKey: on().publicKey }),
  );

  app.get(
    '/subscription',
    { preValidation: guards.signedIn, schema: { tags, response: { 200: subscriptionSchema, ...errors(401, 404) } } },
    async (request) => on().find(ownerOf(request)),
  );

  app.post<{ Body: SubscriptionBody }>(
    '/subscription',
    {
      preValidation: guards.write,
      schema: { tags, body: anyObject, response: { 201: subscriptionSchema, ...errors(400, 401, 404, 429) } },
    },
    async (request, reply) => {
      const body = request.body;
      const created = await on().subscribe(ownerOf(request), {
        endpoint: body.endpoint,
        keys: body.keys,
        alerts: checkAlerts(body.alerts, EVERY_KIND),
        policy: body.policy === undefined ? 'all' : checkPolicy(body.policy),
      });
      return reply.code(201).send(created);
    },
  );

  app.put<{ Body: SubscriptionBody }>(
    '/subscription',
    {
      preValidation: guards.write,
      schema: { tags, body: anyObject, response: { 200: subscriptionSchema, ...errors(400, 401, 404, 429) } },
    },
    async (request) => {
      const service = on();
      const owner = ownerOf(request);
      const current = await service.find(owner);
      const { alerts, policy } = request.body;
      return service.update(owner, {
        alerts: checkAlerts(alerts, current.alerts),
        ...(policy !== undefined && { policy: checkPolicy(policy) }),
      });
    },
  );

  app.delete(
    '/subscription',
    { preValidation: guards.write, schema: { tags, response: { 204: { type: 'null' }, ...errors(401, 404, 429) } } },
    async (request, reply) => {
      await on().remove(ownerOf(request));
      return reply.code(204).send();
    },
  );
};
