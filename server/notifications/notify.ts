/**
 * What the posts, comments and users services call inside an action's transaction: the
 * notification is written (or taken back) with the action or not at all. Once the transaction
 * commits, the service hands what it wrote or removed to `NotificationNudge`, which tells every
 * instance's streams.
 */
import type { Reaction } from '../../lib/types';
import type { NotificationType } from '../db/schema';
import { newId, nowIso } from '../domain/ids';
import type { NotificationsRepository } from './repository';

export interface NotifiedAction {
  type: NotificationType;
  /** Who is notified. */
  userId: string;
  /** Who acted. */
  actorId: string;
  postId?: string;
  commentId?: string;
}

/** A notification written: the bus carries these ids, never the row. */
export interface Notified {
  userId: string;
  notificationId: string;
}

/**
 * Unread notifications of this user were removed (a like taken back, a deleted post, a block...)
 * or marked read: their streams are sent the new unread count, which each instance reads for itself.
 */
export interface Unnotified {
  userId: string;
  removed: true;
}

/** What a committed transaction did to someone's notifications. */
export type Nudge = Notified | Unnotified;

/** Publishes the nudges for notifications whose transaction has committed. */
export type NotificationNudge = (nudges: readonly Nudge[]) => void;

/** Users whose unread notifications were removed, each once. */
export const unnotified = (userIds: Iterable<string>): Unnotified[] =>
  [...new Set(userIds)].map((userId) => ({ userId, removed: true }));

/**
 * Writes the notification, unless the actor is its user, the same action notified them before, or
 * the user does not hear of the actor (a block either way, a mute).
 */
export async function notify(
  notifications: Pick<NotificationsRepository, 'insertNotification' | 'isSilenced'>,
  action: NotifiedAction,
): Promise<Notified | null> {
  if (action.userId === action.actorId) return null;
  if (await notifications.isSilenced(action.userId, action.actorId)) return null;
  const id = newId();
  const added = await notifications.insertNotification({
    id,
    user_id: action.userId,
    actor_id: action.actorId,
    type: action.type,
    post_id: action.postId ?? null,
    comment_id: action.commentId ?? null,
    created_at: nowIso(),
  });
  return added ? { userId: action.userId, notificationId: id } : null;
}

/** Several at once (a text mentioning several people); the written ones. */
export async function notifyEach(
  notifications: Pick<NotificationsRepository, 'insertNotification' | 'isSilenced'>,
  actions: NotifiedAction[],
): Promise<Notified[]> {
  const written: Notified[] = [];
  for (const action of actions) {
    const one = await notify(notifications, action);
    if (one) written.push(one);
  }
  return written;
}

/** An undone action (a like taken back, an unfollow) takes its notification back while unread. */
export async function unnotify(
  notifications: Pick<NotificationsRepository, 'removeUnread'>,
  action: { userId: string; type: NotificationType; actorId: string; subjectId: string },
): Promise<Unnotified | null> {
  return (await notifications.removeUnread(action)) ? { userId: action.userId, removed: true } : null;
}

/**
 * What a like/dislike toggle did to the actor's like: `added` notifies, `removed` takes the
 * unread notification back (a dislike that replaced a like counts; one that did not finds none).
 */
export function likeChange(pressed: Reaction, mine: Reaction | null): 'added' | 'removed' | null {
  if (mine === 'like') return 'added';
  return pressed === 'like' || mine === 'dislike' ? 'removed' : null;
}
