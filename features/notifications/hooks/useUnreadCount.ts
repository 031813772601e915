import { useAppSelector } from '../../../store/hooks';
import { selectUnreadCount } from '../state/notificationsSlice';

/** The unread count the bells show (the store's `notifications.unread`). */
export function useUnreadCount(): number {
  return useAppSelector(selectUnreadCount);
}
