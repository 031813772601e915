import { useEffect, useEffectEvent, useState } from 'react';
import type { AppNotification } from '../../../lib/types';

import { useAppDispatch } from '../../../store/hooks';
import { notificationArrived, unreadCounted } from '../state/notificationsSlice';
import { useTranslations } from 'use-intl/react';
import { useDescribeNotification } from '../lib/describeNotification';

/**
 * How long after the page has loaded the stream opens: the page's own reads and images go first,
 * and a load is "network idle" (what Lighthouse and the browser tests wait for) before a connection
 * that never ends starts.
 */
export const STREAM_DELAY_MS = 3000;

/**
 * Keeps the badges live while a member is signed in (rendered once, by the navbar): opens the
 * stream, loaded on its own, and says each new notification politely to screen readers. The
 * counts the stream hands on (when it opens, and when the server removed unread ones) set the badge.
 */
export function LiveNotifications({ delayMs = STREAM_DELAY_MS }: { delayMs?: number }) {
  const dispatch = useAppDispatch();
  const t = useTranslations('notifications');
  const describe = useDescribeNotification();
  const [said, setSaid] = useState({ text: '', n: 0 });
  const [live, setLive] = useState(false);
  // The stream opens once; its handler says each notification in the language shown now.
  const announce = useEffectEvent((notification: AppNotification) =>
    setSaid((last) => ({ text: t('announce', { sentence: describe(notification) }), n: last.n + 1 })),
  );

  useEffect(() => {
    let close: (() => void) | null = null;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const start = async () => {
      const { openNotificationStream } = await import('../state/notificationStream');
      if (cancelled) return;
      close = openNotificationStream({
        onCount: (count) => {
          dispatch(unreadCounted(count));
          setLive(true);
        },
        onNotification: (notification) => {
          dispatch(notificationArrived(notification));
          announce(notification);
        },
      });
    };
    const later = () => {
      timer = setTimeout(() => void start(), delayMs);
    };
    if (document.readyState === 'complete') later();
    else window.addEventListener('load', later, { once: true });
    return () => {
      cancelled = true;
      window.removeEventListener('load', later);
      clearTimeout(timer);
      close?.();
      // Signed out: the next member's count starts from their own stream.
      dispatch(unreadCounted(0));
    };
  }, [dispatch, delayMs]);

  // A new node per announcement, so the same sentence twice is said twice.
  return (
    <div
      className="visually-hidden"
      role="status"
      aria-live="polite"
      data-testid="notification-announcer"
      data-live={live}
    >
      {said.text && <span key={said.n}>{said.text}</span>}
    </div>
  );
}
