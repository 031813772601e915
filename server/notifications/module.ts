/** Notifications wired: the service, this process's streams and the caps they share (`context.ts`, `app.ts`). */
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../auth/guard';
import type { Config } from '../config';
import type { DomainEvents } from '../events/domainEvents';
import { openFileLimit, streamsForLimit } from '../instance/fileLimit';
import { notificationsRoutes } from './routes';
import { type NotificationsServiceDeps, notificationsService } from './service';
import { notificationStreams } from './streams';
import { streamSlots } from './streamSlots';

export type NotificationsFeature = ReturnType<typeof notificationsFeature>;

export function notificationsFeature({
  config,
  data,
  events,
  log,
}: {
  config: Config;
  data: NotificationsServiceDeps['data'];
  events: DomainEvents;
  log: Parameters<typeof notificationStreams>[0]['log'];
}) {
  const notifications = notificationsService({ data, publish: events.publish });
  const slots = streamSlots({
    max: config.sseStreamsMax ?? streamsForLimit(openFileLimit()),
    perAddress: config.sseStreamsPerIp,
  });
  return {
    notifications,
    /** This process's open notification streams (Server-Sent Events). */
    notificationStreams: notificationStreams({
      events,
      find: notifications.find,
      missed: notifications.missed,
      unread: notifications.unreadOf,
      heartbeatMs: config.sseHeartbeatMs,
      slots,
      log,
    }),
    /** The caps every stream shares (notifications, the client API's streaming). */
    streamSlots: slots,
  };
}

export async function registerNotificationsRoutes(
  app: FastifyInstance,
  deps: Pick<NotificationsFeature, 'notifications' | 'notificationStreams'> & { guards: Guards },
) {
  await app.register(notificationsRoutes, {
    prefix: '/api/notifications',
    notifications: deps.notifications,
    streams: deps.notificationStreams,
    guards: deps.guards,
  });
}
