import { useEffect, useState } from 'react';
import { useAppDispatch } from '../../../store/hooks';
import { sessionLost } from '../../../store/sessionLost';
import { notificationArrived, unreadCounted } from '../activitySlice';
import { describeNotification } from '../describeNotification';

/**
 * Keeps the badges live while a member is signed in (rendered once, by the navbar): opens the
 * stream, loaded on its own, and says each new notification politely to screen readers.
 */
export function LiveNotifications() {
  const dispatch = useAppDispatch();
  const [said, setSaid] = useState({ text: '', n: 0 });

  useEffect(() => {
    let close: (() => void) | null = null;
    let cancelled = false;
    void import('../notificationStream').then(({ openNotificationStream }) => {
      if (cancelled) return;
      close = openNotificationStream({
        onCount: (count) => dispatch(unreadCounted(count)),
        onNotification: (notification) => {
          dispatch(notificationArrived(notification));
          setSaid((last) => ({ text: `New notification: ${describeNotification(notification)}`, n: last.n + 1 }));
        },
        onSessionLost: () => dispatch(sessionLost()),
      });
    });
    return () => {
      cancelled = true;
      close?.();
      // Signed out: the next member's count starts from their own stream.
      dispatch(unreadCounted(0));
    };
  }, [dispatch]);

  // A new node per announcement, so the same sentence twice is said twice.
  return (
    <div className="visually-hidden" role="status" aria-live="polite" data-testid="notification-announcer">
      {said.text && <span key={said.n}>{said.text}</span>}
    </div>
  );
}
