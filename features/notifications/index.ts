/** Notifications of what others did (follows, likes, comments, mentions): the bells, their live stream and the page. */
export { LiveNotifications } from './components/LiveNotifications';
export { NotificationBell, NotificationsLink, UnreadBadge } from './components/NotificationBell';
export { NotificationsView } from './components/NotificationsView';
export { useUnreadCount } from './hooks/useUnreadCount';
export { useUnreadLabel } from './lib/describeNotification';
