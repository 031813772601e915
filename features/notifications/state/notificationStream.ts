/**
 * The live side of the bell: one EventSource on `GET /api/notifications/stream`, loaded only once
 * a member's navbar is on screen (the bell imports this module lazily).
 */
import type { AppNotification } from '../../../lib/types';
import { notificationsApi, NOTIFICATION_STREAM_URL } from './notificationsApi';

export interface StreamHandlers {
  /**
   * The unread count: read when the stream (re)opens, and sent by the server (`event: unread`)
   * when unread ones were removed (a like taken back, a deleted post, a block).
   */
  onCount(count: number): void;
  /** A notification not seen before on this stream. */
  onNotification(notification: AppNotification): void;
}

export interface StreamOptions {
  /** The first wait before reopening a stream the server refused; doubled each time up to a minute. */
  retryMs?: number;
}

const RETRY_MAX_MS = 60_000;
/** How many ids are remembered to drop what a reconnect's replay sends again. */
const SEEN_MAX = 200;

/** Opens the stream; the returned function closes it for good. */
export function openNotificationStream(handlers: StreamHandlers, options: StreamOptions = {}): () => void {
  const { retryMs = 2000 } = options;
  const seen = new Set<string>();
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wait = retryMs;
  let stopped = false;

  const readCount = () =>
    notificationsApi.unread().then((count) => {
      if (!stopped) handlers.onCount(count);
    });

  const onMessage = (event: MessageEvent<string>) => {
    let notification: AppNotification;
    try {
      notification = JSON.parse(event.data) as AppNotification;
    } catch {
      return;
    }
    if (seen.has(notification.id)) return;
    seen.add(notification.id);
    if (seen.size > SEEN_MAX) seen.delete(seen.values().next().value as string);
    handlers.onNotification(notification);
  };

  const onUnread = (event: MessageEvent<string>) => {
    let count: unknown;
    try {
      count = (JSON.parse(event.data) as { count?: unknown } | null)?.count;
    } catch {
      return;
    }
    if (typeof count === 'number' && Number.isInteger(count)) handlers.onCount(count);
  };

  const open = () => {
    source = new EventSource(NOTIFICATION_STREAM_URL, { withCredentials: true });
    source.addEventListener('notification', onMessage as EventListener);
    source.addEventListener('unread', onUnread as EventListener);
    // Every (re)open reads the count: what arrived while the stream was down is counted too.
    source.onopen = () => {
      wait = retryMs;
      readCount().catch(() => {});
    };
    source.onerror = () => {
      // CONNECTING: the browser reconnects by itself, sending Last-Event-ID. CLOSED: the server
      // refused (an expired access token is a 401), which EventSource never retries.
      if (!source || source.readyState !== EventSource.CLOSED) return;
      source.close();
      source = null;
      timer = setTimeout(reopen, wait);
      wait = Math.min(wait * 2, RETRY_MAX_MS);
    };
  };

  // A read through the API client first: a lapsed session is renewed there (the cookies the
  // stream then sends). A lost one is the API client's to report: the store signs the user out,
  // and the navbar that opened the stream closes it.
  const reopen = () => {
    readCount().then(
      () => !stopped && open(),
      () => {
        if (stopped) return;
        timer = setTimeout(reopen, wait);
        wait = Math.min(wait * 2, RETRY_MAX_MS);
      },
    );
  };

  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
    source = null;
  };
}
