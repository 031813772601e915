/**
 * Web Push wired (issue 74): the key pair (made at the first start), the subscriptions, the
 * deliveries of each notification this instance writes (`context.ts`, `app.ts`).
 */
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../auth/guard';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { DomainEvents } from '../events/domainEvents';
import type { NotificationsService } from '../notifications/service';
import { pushDeliveries } from './deliveries';
import { pushRepository } from './repository';
import { pushRoutes } from './routes';
import { tokenSealer } from './sealedTokens';
import { pushService } from './service';
import { vapidKeys } from './vapid';

export type PushFeature = ReturnType<typeof pushFeature>;

export function pushFeature({
  config,
  webPush,
  db,
  events,
  notifications,
  log,
  retryDelaysMs,
}: {
  config: Config;
  webPush: NonNullable<Config['webPush']>;
  db: Db;
  events: Pick<DomainEvents, 'subscribeOwn'>;
  /** The notifications' service: each is read again before it is pushed. */
  notifications: Pick<NotificationsService, 'find'>;
  log: Parameters<typeof pushDeliveries>[0]['log'];
  /** Waits before a failed push's retries; tests shorten them. */
  retryDelaysMs?: number[];
}) {
  const keys = vapidKeys(webPush, config.dataDir);
  const repo = pushRepository(db.kysely);
  const sealer = tokenSealer(config.jwtSecret);
  const { allowPrivateAddress } = webPush;
  return {
    service: pushService({ repo, publicKey: keys.publicKey, allowPrivateAddress, sealer }),
    // Once per notification, from the instance that wrote it.
    deliveries: pushDeliveries({
      subscribeOwn: events.subscribeOwn,
      find: notifications.find,
      repo,
      vapid: { subject: webPush.subject, ...keys },
      site: config.siteUrl,
      allowPrivateAddress,
      sealer,
      log,
      retryDelaysMs,
    }),
  };
}

export async function registerPushRoutes(app: FastifyInstance, deps: { push: PushFeature | null; guards: Guards }) {
  await app.register(pushRoutes, { prefix: '/api/push', push: deps.push?.service ?? null, guards: deps.guards });
}
