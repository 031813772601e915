import type { AppNotification } from '../../../lib/types';

/** What happened, after the actor's name: "liked your post". */
export function notificationAction(notification: AppNotification): string {
  switch (notification.type) {
    case 'follow':
      return 'started following you';
    case 'followRequest':
      return 'asked to follow you';
    case 'like':
      return 'liked your post';
    case 'comment':
      return 'commented on your post';
    case 'commentLike':
      return 'liked your comment';
    case 'mention':
      return notification.comment ? 'mentioned you in a comment' : 'mentioned you in a post';
  }
}

/** The whole sentence, as screen readers announce a new one: "ann liked your post". */
export function describeNotification(notification: AppNotification): string {
  return `${notification.actor.username} ${notificationAction(notification)}`;
}

/** The badge's accessible name. */
export function unreadLabel(count: number): string {
  if (count === 0) return 'Notifications';
  return `Notifications, ${count} unread`;
}
