/** Reading notifications and marking them read; they are written by the actions' own services (notify.ts). */
import type { AppNotification } from '../../lib/types';
import type { Transactional } from '../db/repository';
import { InvalidError, NotFoundError } from '../domain/errors';
import { isUuid, nowIso } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import type { PublishEvent } from '../events/domainEvents';
import { unreadFellFor } from '../events/events';
import { toNotification } from './mappers';
import type { NotificationsRepository } from './repository';

/** Most notifications a reconnecting stream is sent; a client away longer reloads the list. */
export const STREAM_REPLAY_MAX = 100;

export interface NotificationsServiceDeps {
  data: Transactional<{ notifications: NotificationsRepository }>;
  /** Tells the user's streams (other tabs, other instances) the count left after marking read. */
  publish: PublishEvent;
}

export function notificationsService({ data, publish }: NotificationsServiceDeps) {
  const { notifications } = data;
  return {
    async list(user: AuthUser, page: Page): Promise<AppNotification[]> {
      return (await notifications.listNotifications(user.id, page.cursor, page.limit + 1)).map(toNotification);
    },

    async unread(user: AuthUser): Promise<{ count: number }> {
      return { count: await notifications.unreadCount(user.id) };
    },

    /** The user's unread count, for the streams (after some were removed). */
    async unreadOf(userId: string): Promise<number> {
      return notifications.unreadCount(userId);
    },

    /** All unread, or those up to and including `upTo`; answers the unread count left. */
    async markRead(user: AuthUser, upTo: unknown): Promise<{ count: number }> {
      if (upTo !== undefined && upTo !== null && !isUuid(upTo))
        throw new InvalidError('upTo must be the id of a notification', 'InvalidNotification');
      await notifications.markRead(user.id, (upTo as string | null | undefined) ?? null, nowIso());
      publish({ type: 'NotificationsRead', userId: user.id, notifications: unreadFellFor([user.id]) });
      return { count: await notifications.unreadCount(user.id) };
    },

    /**
     * Removes one of the user's notifications (`id`), or all of them (null): Mastodon's dismiss and
     * clear. The streams hear the unread count when unread ones went.
     */
    async remove(user: AuthUser, id: string | null): Promise<void> {
      if (id !== null && !isUuid(id)) throw new NotFoundError('Notification not found', 'NotificationNotFound');
      const { removed, unread } = await notifications.deleteNotifications(user.id, id);
      if (id !== null && removed === 0) throw new NotFoundError('Notification not found', 'NotificationNotFound');
      if (unread > 0)
        publish({ type: 'NotificationsRemoved', userId: user.id, notifications: unreadFellFor([user.id]) });
    },

    /** One of the user's notifications, for the streams (null once deleted). */
    async find(userId: string, id: string): Promise<AppNotification | null> {
      const row = await notifications.findNotification(userId, id);
      return row ? toNotification(row) : null;
    },

    /** What a stream missed after `afterId`, oldest first. */
    async missed(userId: string, afterId: string): Promise<AppNotification[]> {
      return (await notifications.notificationsAfter(userId, afterId, STREAM_REPLAY_MAX)).map(toNotification);
    },
  };
}

export type NotificationsService = ReturnType<typeof notificationsService>;
