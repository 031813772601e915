/**
 * Subscriptions of the signed-in session (the web app) or of an access token (the client API):
 * one each, a new one replacing the old, with the kinds pushed and from whom. Identity comes from
 * the session or the token only; a subscription is never reached by its id.
 */
import type { PushPolicy } from '../db/schema';
import { NotFoundError } from '../domain/errors';
import { newId, nowIso } from '../domain/ids';
import { ALERT_COLUMNS, PUSH_KINDS, type PushAlerts } from './kinds';
import { checkEndpoint, checkKeys } from './input';
import type { PushOwner, PushRepository, PushSubscriptionRow } from './repository';
import type { TokenSealer } from './sealedTokens';

export interface PushSubscriptionView {
  id: string;
  endpoint: string;
  alerts: PushAlerts;
  policy: PushPolicy;
  /** The instance's VAPID public key (base64url), which the browser subscribed with. */
  serverKey: string;
}

export interface NewPushSubscription {
  endpoint: unknown;
  keys: unknown;
  alerts: PushAlerts;
  policy: PushPolicy;
  /** A client API subscription's own token, for Mastodon's payload. */
  accessToken?: string;
}

export const alertsOf = (row: PushSubscriptionRow): PushAlerts =>
  Object.fromEntries(PUSH_KINDS.map((kind) => [kind, row[ALERT_COLUMNS[kind]] === 1])) as PushAlerts;

const alertColumns = (alerts: PushAlerts) =>
  Object.fromEntries(PUSH_KINDS.map((kind) => [ALERT_COLUMNS[kind], alerts[kind] ? 1 : 0])) as {
    [K in (typeof ALERT_COLUMNS)[keyof typeof ALERT_COLUMNS]]: number;
  };

export const NO_SUBSCRIPTION = 'There is no push subscription for this session';

export function pushService({
  repo,
  publicKey,
  allowPrivateAddress,
  sealer,
}: {
  repo: PushRepository;
  publicKey: string;
  allowPrivateAddress: boolean;
  sealer: TokenSealer;
}) {
  const view = (row: PushSubscriptionRow): PushSubscriptionView => ({
    id: row.id,
    endpoint: row.endpoint,
    alerts: alertsOf(row),
    policy: row.policy,
    serverKey: publicKey,
  });

  async function find(owner: PushOwner): Promise<PushSubscriptionView> {
    const row = await repo.find(owner);
    if (!row) throw new NotFoundError(NO_SUBSCRIPTION, 'NoPushSubscription');
    return view(row);
  }

  return {
    publicKey,
    find,

    async subscribe(owner: PushOwner, input: NewPushSubscription): Promise<PushSubscriptionView> {
      const endpoint = checkEndpoint(input.endpoint, allowPrivateAddress);
      const keys = checkKeys(input.keys);
      const row: PushSubscriptionRow = {
        id: newId(),
        user_id: owner.userId,
        session_id: 'sessionId' in owner ? owner.sessionId : null,
        token_id: 'tokenId' in owner ? owner.tokenId : null,
        access_token_sealed: input.accessToken ? sealer.seal(input.accessToken) : null,
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        ...alertColumns(input.alerts),
        policy: input.policy,
        created_at: nowIso(),
      };
      await repo.replace(owner, row);
      return view(row);
    },

    async update(
      owner: PushOwner,
      changes: { alerts?: PushAlerts; policy?: PushPolicy },
    ): Promise<PushSubscriptionView> {
      const set = {
        ...(changes.alerts ? alertColumns(changes.alerts) : {}),
        ...(changes.policy ? { policy: changes.policy } : {}),
      };
      if (Object.keys(set).length > 0 && !(await repo.update(owner, set)))
        throw new NotFoundError(NO_SUBSCRIPTION, 'NoPushSubscription');
      return find(owner);
    },

    remove: (owner: PushOwner) => repo.remove(owner),
  };
}

export type PushService = ReturnType<typeof pushService>;
