import { useTranslations } from 'use-intl/react';
import type { AppNotification } from '../../../lib/types';

/** What a notification's sentence selects on (`notifications.sentence`): a mention in a comment is its own kind. */
export const notificationKind = (notification: AppNotification): string =>
  notification.type === 'mention' && notification.comment ? 'commentMention' : notification.type;

/**
 * The whole sentence as text, as screen readers announce a new one: "ann liked your post". The
 * actor's name sits where each language puts it (`<name>` in the message).
 */
export function useDescribeNotification(): (notification: AppNotification) => string {
  const t = useTranslations('notifications');
  return (notification) =>
    t.markup('sentence', {
      kind: notificationKind(notification),
      username: notification.actor.username,
      name: (chunks) => chunks,
    });
}

/** The bell's accessible name: "Notifications", or "Notifications, 3 unread". */
export function useUnreadLabel(): (count: number) => string {
  const t = useTranslations('notifications');
  return (count) => (count === 0 ? t('title') : t('unreadLabel', { count }));
}
