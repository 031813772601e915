import { useSyncExternalStore } from 'react';
import type { AppNotification } from '../../lib/types';

/**
 * The unread count the bells show, kept here rather than in the Redux store: the store is part of
 * every page's first load (at its budget, docs/frontend.md), and only the signed-in navbar and the
 * notifications page, both loaded on demand, read or change the count.
 */
let unread = 0;
const listeners = new Set<() => void>();

function set(count: number): void {
  const next = Math.max(0, count);
  if (next === unread) return;
  unread = next;
  for (const listener of listeners) listener();
}

export const unreadCount = {
  get: (): number => unread,
  /** The count the server answered (or sent on the stream after removing unread ones). */
  counted: (count: number): void => set(count),
  /** A notification came in on the stream: one more unless it is already read (another tab). */
  arrived: (notification: AppNotification): void => {
    if (!notification.read) set(unread + 1);
  },
  /** The list was shown: the badge falls at once, before the server answers. */
  read: (): void => set(0),
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

// The server renders no count: it arrives with the stream.
const none = () => 0;

export function useUnreadCount(): number {
  return useSyncExternalStore(unreadCount.subscribe, unreadCount.get, none);
}
