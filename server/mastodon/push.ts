/**
 * `POST/GET/PUT/DELETE /api/v1/push/subscription` (issue 74, item 4): Mastodon's Web Push
 * subscription, one per access token (a new one replaces it), scope `push`. Apps send
 * `subscription[endpoint]`, `subscription[keys][p256dh]`, `subscription[keys][auth]`,
 * `data[alerts][<type>]` and `data[policy]` (also `policy` at the top, as masto.js sends it), as a
 * form or as JSON. Pushes are RFC 8291 `aes128gcm` only (`standard: true`).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { InvalidError, NotFoundError } from '../domain/errors';
import type { PushPolicy } from '../db/schema';
import { alertsFromMastodon, mastodonAlerts } from '../push/kinds';
import { checkPolicy, flagOf } from '../push/input';
import type { PushOwner } from '../push/repository';
import { PUSH_DISABLED } from '../push/routes';
import type { PushService, PushSubscriptionView } from '../push/service';
import { bearerOf, needs } from './http';
import type { ClientServices } from './support';

/** `a[b][c]=v` form keys as `{ a: { b: { c: v } } }`, merged into what JSON already nested. */
export function nestedParams(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const path = key.match(/^([^[\]]+)((?:\[[^[\]]*\])*)$/);
    const parts = path ? [path[1], ...[...path[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])] : [key];
    let at = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        at[part] =
          value && typeof value === 'object' && !Array.isArray(value) && typeof at[part] === 'object'
            ? { ...(at[part] as object), ...(value as object) }
            : value;
      } else {
        if (!at[part] || typeof at[part] !== 'object') at[part] = {};
        at = at[part] as Record<string, unknown>;
      }
    });
  }
  return out;
}

const objectOr = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** `data[alerts]` (Mastodon's names; `admin.sign_up` may come nested as `admin[sign_up]`), checked. */
function givenAlerts(raw: unknown): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(objectOr(raw))) {
    if (value && typeof value === 'object') continue; // admin alerts: no admin notifications are pushed here
    out[name] = flagOf(`data[alerts][${name}]`, value);
  }
  return out;
}

function policyOf(body: Record<string, unknown>): PushPolicy | undefined {
  const raw = objectOr(body.data).policy ?? body.policy;
  return raw === undefined || raw === null || raw === '' ? undefined : checkPolicy(raw);
}

const entity = (view: PushSubscriptionView) => ({
  id: view.id,
  endpoint: view.endpoint,
  standard: true,
  alerts: mastodonAlerts(view.alerts),
  server_key: view.serverKey,
  policy: view.policy,
});

export const pushEndpoints: FastifyPluginAsync<ClientServices> = async (app, { push }) => {
  const on = (): PushService => {
    if (!push) throw new NotFoundError(PUSH_DISABLED, 'PushDisabled');
    return push;
  };
  const ownerOf = (request: FastifyRequest): PushOwner => {
    const auth = request.bearer!;
    return { userId: auth.user!.id, tokenId: auth.tokenId };
  };
  const bodyOf = (request: FastifyRequest) => nestedParams(objectOr(request.body));
  const path = '/api/v1/push/subscription';
  const guard = { preValidation: needs('push') };

  app.post(path, guard, async (request) => {
    const body = bodyOf(request);
    const subscription = objectOr(body.subscription);
    if (!body.subscription) throw new InvalidError('subscription[endpoint] and subscription[keys] are required');
    const created = await on().subscribe(ownerOf(request), {
      endpoint: subscription.endpoint,
      keys: subscription.keys,
      alerts: alertsFromMastodon(givenAlerts(objectOr(body.data).alerts)),
      policy: policyOf(body) ?? 'all',
      accessToken: bearerOf(request) ?? undefined,
    });
    return entity(created);
  });

  app.get(path, guard, async (request) => entity(await on().find(ownerOf(request))));

  app.put(path, guard, async (request) => {
    const service = on();
    const owner = ownerOf(request);
    await service.find(owner);
    const body = bodyOf(request);
    const alerts = objectOr(body.data).alerts;
    const policy = policyOf(body);
    return entity(
      await service.update(owner, {
        // As Mastodon: the alerts sent replace the others (those left out are off).
        ...(alerts !== undefined && { alerts: alertsFromMastodon(givenAlerts(alerts)) }),
        ...(policy && { policy }),
      }),
    );
  });

  app.delete(path, guard, async (request) => {
    await on().remove(ownerOf(request));
    return {};
  });
};
