/**
 * What the posts, comments and users services call inside an action's transaction: the
 * notification is written (or taken back) with the action or not at all. Once the transaction
 * commits, the service's event carries what was written or removed (`NotificationChange`), and
 * every instance's streams hear of it.
 */
import type { Reaction } from '../../lib/types';
import type { NotificationType } from '../db/schema';
import { newId, nowIso } from '../domain/ids';
import type { NotificationWritten, UnreadFell } from '../events/events';
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

/**
 * Writes the notification, unless the actor is its user, the same action notified them before, or
 * the user does not hear of the actor (a block either way, a mute).
 */
export async function notify(
  notifications: Pick<NotificationsRepository, 'insertNotification' | 'isSilenced'>,
  action: NotifiedAction,
): Promise<NotificationWritten | null> {
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

/**
 * Several at once (a text mentioning several people), the mentions within the actor's budget
 * (`mentionsPerMinute`); the written ones.
 */
export async function notifyEach(
  notifications: Pick<NotificationsRepository, 'insertNotification' | 'isSilenced' | 'mentionsSentSince'>,
  actions: NotifiedAction[],
  mentionsPerMinute: number,
): Promise<NotificationWritten[]> {
  const written: NotificationWritten[] = [];
  const actorId = actions[0]?.actorId;
  const allowed = actorId ? await withinMentionBudget(notifications, actorId, actions, mentionsPerMinute) : [];
  for (const action of allowed) {
    const one = await notify(notifications, action);
    if (one) written.push(one);
  }
  return written;
}

/**
 * Of `actions`, those the actor's mention budget still allows: at most `perMinute` mention
 * notifications in the last minute, counted in the database so that every instance agrees. The
 * others are dropped; the mentions themselves stay linked. Other kinds pass: each is one write,
 * which the write limit already bounds.
 */
async function withinMentionBudget(
  notifications: Pick<NotificationsRepository, 'mentionsSentSince'>,
  actorId: string,
  actions: NotifiedAction[],
  perMinute: number,
): Promise<NotifiedAction[]> {
  if (!actions.some((action) => action.type === 'mention')) return actions;
  const since = new Date(Date.now() - 60_000).toISOString();
  let left = perMinute - (await notifications.mentionsSentSince(actorId, since, perMinute));
  return actions.filter((action) => action.type !== 'mention' || left-- > 0);
}

/** An undone action (a like taken back, an unfollow) takes its notification back while unread. */
export async function withdrawUnread(
  notifications: Pick<NotificationsRepository, 'removeUnread'>,
  action: { userId: string; type: NotificationType; actorId: string; subjectId: string },
): Promise<UnreadFell | null> {
  return (await notifications.removeUnread(action)) ? { userId: action.userId, unreadFell: true } : null;
}

/**
 * What a like/dislike toggle did to the actor's like: `added` notifies, `removed` takes the
 * unread notification back (a dislike that replaced a like counts; one that did not finds none).
 */
export function likeChange(pressed: Reaction, mine: Reaction | null): 'added' | 'removed' | null {
  if (mine === 'like') return 'added';
  return pressed === 'like' || mine === 'dislike' ? 'removed' : null;
}
