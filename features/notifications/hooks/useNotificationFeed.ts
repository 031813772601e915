import { useCallback, useEffect, useRef, useState } from 'react';
import type { ListPage } from '../../../lib/firstLoad';
import type { AppNotification } from '../../../lib/types';
import { errorMessage } from '../../../services/apiClient';
import { notificationsApi } from '../state/notificationsApi';
import { useAppDispatch } from '../../../store/hooks';
import { fetchUnreadCount, markNotificationsRead, notificationsShown } from '../state/notificationsSlice';
import { useUnreadCount } from './useUnreadCount';

interface NotificationFeed {
  items: AppNotification[];
  loading: boolean;
  error: string | null;
  hasMore: boolean;
  loadMore: () => void;
}

/** The new ones of `fresh` (newest first) before `items`. */
function prependNew(items: AppNotification[], fresh: AppNotification[]): AppNotification[] {
  const known = new Set(items.map((item) => item.id));
  return [...fresh.filter((item) => !known.has(item.id)), ...items];
}

/**
 * The notifications of the open panel or page, newest first. Showing them marks them read (the
 * badge falls at once); one that arrives while they are open is read in and marked too.
 * `initial`: the first page the server rendered the page with.
 */
export function useNotificationFeed(initial: ListPage<AppNotification> | null = null): NotificationFeed {
  const dispatch = useAppDispatch();
  const unread = useUnreadCount();
  const [items, setItems] = useState<AppNotification[]>(initial?.items ?? []);
  const [next, setNext] = useState<string | null>(initial?.next ?? null);
  const [loaded, setLoaded] = useState(initial !== null);
  const [loading, setLoading] = useState(initial === null);
  const [error, setError] = useState<string | null>(null);
  const reading = useRef(false);
  const lastMarked = useRef<string | null>(null);

  // Read up to the newest shown, so one that arrives meanwhile stays unread until it is shown.
  const markRead = useCallback(
    (newest: AppNotification | undefined) => {
      // Once per newest one: a count that stays up (another tab) must not read and mark in a loop.
      if (!newest || newest.id === lastMarked.current) return;
      lastMarked.current = newest.id;
      dispatch(notificationsShown());
      void dispatch(markNotificationsRead(newest.id)).then((marked) => {
        // The badge says what the server holds, whatever failed.
        if (markNotificationsRead.rejected.match(marked)) void dispatch(fetchUnreadCount());
      });
    },
    [dispatch],
  );

  // The first page (unless the server rendered it), then the new ones whenever the badge rises.
  const readNewest = useCallback(
    (first: boolean) => {
      if (reading.current) return;
      reading.current = true;
      notificationsApi
        .list()
        .then(
          (page) => {
            setItems((current) => (first ? page.items : prependNew(current, page.items)));
            if (first) setNext(page.next);
            markRead(page.items[0]);
          },
          (err: unknown) => setError(errorMessage(err)),
        )
        .finally(() => {
          reading.current = false;
          setLoading(false);
          setLoaded(true);
        });
    },
    [markRead],
  );

  useEffect(() => {
    if (initial) {
      if (initial.items.some((item) => !item.read)) markRead(initial.items[0]);
      return;
    }
    readNewest(true);
    // Once on mount: `initial` is the server's first render, never a new one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (loaded && unread > 0) readNewest(false);
  }, [loaded, unread, readNewest]);

  const loadMore = useCallback(() => {
    if (!next || loading) return;
    setLoading(true);
    notificationsApi
      .page(next)
      .then(
        (page) => {
          setItems((current) => [...current, ...page.items.filter((item) => !current.some((c) => c.id === item.id))]);
          setNext(page.next);
        },
        (err: unknown) => {
          setError(errorMessage(err));
          setNext(null);
        },
      )
      .finally(() => setLoading(false));
  }, [next, loading]);

  return { items, loading, error, hasMore: Boolean(next), loadMore };
}
