import { useAppSelector } from '../../store/hooks';
import { selectUnreadCount } from './activitySlice';

/** The unread count the bells show (the store's `activity.unread`). */
export function useUnreadCount(): number {
  return useAppSelector(selectUnreadCount);
}
