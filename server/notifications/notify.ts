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
import type { Steps } from '../db/steps';
import {
  type NotificationsRepository,
  insertNotificationSteps,
  isSilencedSteps,
  mentionsSentSinceSteps,
  removeUnreadSteps,
} from './repository';

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
export function notify(
  notifications: Pick<NotificationsRepository, 'run'>,
  action: NotifiedAction,
): Promise<NotificationWritten | null> {
  return notifications.run(notifySteps(action));
}

/** `notify` as steps, for a write run as steps (`db/steps.ts`). */
export function* notifySteps(action: NotifiedAction): Steps<NotificationWritten | null> {
  if (action.userId === action.actorId) return null;
  if (yield* isSilencedSteps(action.userId, action.actorId)) return null;
  const id = newId();
  const added = yield* insertNotificationSteps({
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
export function notifyEach(
  notifications: Pick<NotificationsRepository, 'run'>,
  actions: NotifiedAction[],
  mentionsPerMinute: number,
): Promise<NotificationWritten[]> {
  return notifications.run(notifyEachSteps(actions, mentionsPerMinute));
}

/** `notifyEach` as steps. */
export function* notifyEachSteps(actions: NotifiedAction[], mentionsPerMinute: number): Steps<NotificationWritten[]> {
  const written: NotificationWritten[] = [];
  const actorId = actions[0]?.actorId;
  const allowed = actorId ? yield* withinMentionBudget(actorId, actions, mentionsPerMinute) : [];
  for (const action of allowed) {
    const one = yield* notifySteps(action);
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
function* withinMentionBudget(actorId: string, actions: NotifiedAction[], perMinute: number): Steps<NotifiedAction[]> {
  if (!actions.some((action) => action.type === 'mention')) return actions;
  const since = new Date(Date.now() - 60_000).toISOString();
  let left = perMinute - (yield* mentionsSentSinceSteps(actorId, since, perMinute));
  return actions.filter((action) => action.type !== 'mention' || left-- > 0);
}

/** An undone action (a like taken back, an unfollow) takes its notification back while unread. */
export function withdrawUnread(
  notifications: Pick<NotificationsRepository, 'run'>,
  action: WithdrawnAction,
): Promise<UnreadFell | null> {
  return notifications.run(withdrawSteps(action));
}

type WithdrawnAction = { userId: string; type: NotificationType; actorId: string; subjectId: string };

/** `withdrawUnread` as steps. */
export function* withdrawSteps(action: WithdrawnAction): Steps<UnreadFell | null> {
  return (yield* removeUnreadSteps(action)) ? { userId: action.userId, unreadFell: true } : null;
}

/**
 * What a like/dislike toggle did to the actor's like: `added` notifies, `removed` takes the
 * unread notification back (a dislike that replaced a like counts; one that did not finds none).
 */
export function likeChange(pressed: Reaction, mine: Reaction | null): 'added' | 'removed' | null {
  if (mine === 'like') return 'added';
  return pressed === 'like' || mine === 'dislike' ? 'removed' : null;
}
