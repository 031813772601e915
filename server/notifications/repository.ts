/** Queries on notifications. Every list is keyset-paged on the UUIDv7 id, newest first. */
import { type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { audienceAllows } from '../domain/audience';
import { newestFirst } from '../db/keyset';
import { prepared } from '../db/prepared';
import { bindQueries } from '../db/repository';
import type { Database, NotificationType, NotificationsTable, Queryable } from '../db/schema';
import { literalLimit, unplanned } from '../db/stablePlans';
import { type Steps, ask, stepsOn } from '../db/steps';

/**
 * Unread: past the recipient's marker, `users.notifications_read_to` (migration 020), which marking
 * read moves up; '' below every id when they have read none. UUIDv7 ids sort as they were made.
 */
export const isUnread = (
  eb: ExpressionBuilder<Database & { recipient: Database['users'] }, 'notifications' | 'recipient'>,
) => eb('notifications.id', '>', eb.fn.coalesce('recipient.notifications_read_to', sql.lit('')));

/**
 * The notifications their user may see: none from a suspended actor, nor from a silenced domain's
 * person the user does not follow (`mayShow`, `across`: those made before the silence are shown
 * again when it is lifted), nor about a post whose audience leaves the user out now (issue 70: a
 * follower who stopped following). The list and the unread count both read through it, so they agree.
 */
function shownNotifications(db: Queryable) {
  const post = sql`coalesce(notifications.post_id, (select c.post_id from comments c where c.id = notifications.comment_id))`;
  const hiddenPost = sql<SqlBool>`exists (select 1 from posts where posts.id = ${post} and posts.audience <> 'public' and not ${audienceAllows(db, sql.ref<string>('notifications.user_id'), 'content')})`;
  return db
    .selectFrom('notifications')
    .innerJoin('users as actor', 'actor.id', 'notifications.actor_id')
    .innerJoin('users as recipient', 'recipient.id', 'notifications.user_id')
    .where('actor.suspended_at', 'is', null)
    .where(sql<SqlBool>`not ${hiddenPost}`)
    .where((eb) =>
      eb.or([
        eb('actor.domain_silenced', '=', 0),
        eb.exists(
          eb
            .selectFrom('follows')
            .select('follows.id')
            .whereRef('follows.follower_id', '=', 'notifications.user_id')
            .whereRef('follows.followee_id', '=', 'actor.id'),
        ),
      ]),
    );
}

/**
 * A notification with what its response shows: the actor, the post's image, the comment's text.
 * One about a comment finds its post through the comment (`insertNotificationSteps`).
 */
function selectNotifications(db: Queryable) {
  return shownNotifications(db)
    .leftJoin('comments', 'comments.id', 'notifications.comment_id')
    .leftJoin('posts', (join) =>
      join.on((eb) => eb('posts.id', '=', eb.fn.coalesce('notifications.post_id', 'comments.post_id'))),
    )
    .select((eb) => [
      'notifications.id',
      'notifications.type',
      'recipient.notifications_read_to as read_to',
      'notifications.created_at',
      eb.fn.coalesce('notifications.post_id', 'comments.post_id').as('post_id'),
      'notifications.comment_id',
      'actor.username as actor_username',
      'actor.avatar as actor_avatar',
      // Whether the recipient follows the actor: a follow's Follow back button (issue 68, item 30).
      eb
        .exists(
          eb
            .selectFrom('follows as back')
            .select('back.id')
            .whereRef('back.follower_id', '=', 'notifications.user_id')
            .whereRef('back.followee_id', '=', 'actor.id'),
        )
        .as('actor_followed'),
      'posts.image as post_image',
      'comments.message as comment_message',
    ]);
}

export type NotificationRow = Awaited<ReturnType<ReturnType<typeof selectNotifications>['execute']>>[number];

const newestNotifications = prepared((db, v: { userId: string; cursor: string | null; limit: number }) =>
  newestFirst(
    selectNotifications(db).where('notifications.user_id', '=', unplanned(db, v.userId)),
    'notifications.id',
    v.cursor,
    v.limit,
  ),
);

/** A user's notifications, newest first, below the cursor. */
const listNotifications = (db: Queryable, userId: string, cursor: string | null, limit: number) =>
  newestNotifications(db, { userId, cursor, limit });

/** Those newer than `afterId`, oldest first: what a stream that reconnects has missed. */
const notificationsAfter = (db: Queryable, userId: string, afterId: string, limit: number) =>
  selectNotifications(db)
    .where('notifications.user_id', '=', userId)
    .where('notifications.id', '>', afterId)
    .orderBy('notifications.id', 'asc')
    .limit(literalLimit(limit))
    .execute();

/** One of the user's notifications (undefined once deleted). */
const findNotification = (db: Queryable, userId: string, id: string) =>
  selectNotifications(db)
    .where('notifications.id', '=', id)
    .where('notifications.user_id', '=', userId)
    .executeTakeFirst();

const unread = prepared((db, v: { userId: string }) =>
  shownNotifications(db)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('notifications.user_id', '=', unplanned(db, v.userId))
    .where(isUnread),
);

async function unreadCount(db: Queryable, userId: string): Promise<number> {
  return Number((await unread(db, { userId }))[0]?.count ?? 0);
}

/** The newest notification id the user has read ('' when none): those up to it are read. */
export async function readTo(db: Queryable, userId: string): Promise<string> {
  const row = await db.selectFrom('users').select('notifications_read_to').where('id', '=', userId).executeTakeFirst();
  return row?.notifications_read_to ?? '';
}

/**
 * Marks the user's notifications read, all or those up to and including `upTo`: the marker moves up
 * (never down), and the rows it passes are given the time, for the export.
 */
async function markRead(db: Queryable, userId: string, upTo: string | null, at: string): Promise<void> {
  const to =
    upTo ??
    (
      await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.max('id').as('newest'))
        .where('user_id', '=', userId)
        .executeTakeFirst()
    )?.newest;
  const from = await readTo(db, userId);
  if (!to || to <= from) return;
  await db
    .updateTable('users')
    .set({ notifications_read_to: to })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('notifications_read_to', 'is', null), eb('notifications_read_to', '<', to)]))
    .execute();
  await db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('user_id', '=', userId)
    .where('id', '>', from)
    .where('id', '<=', to)
    .where('read_at', 'is', null)
    .execute();
}

/** Removes the user's notifications (one by id, or all); answers whether an unread one went. */
async function deleteNotifications(
  db: Queryable,
  userId: string,
  id: string | null,
): Promise<{ removed: number; unread: number }> {
  let query = db.deleteFrom('notifications').where('user_id', '=', userId);
  if (id) query = query.where('id', '=', id);
  const from = await readTo(db, userId);
  const rows = await query.returning(['id']).execute();
  return { removed: rows.length, unread: rows.filter((row) => row.id > from).length };
}

export interface NewNotification {
  id: string;
  user_id: string;
  actor_id: string;
  type: NotificationType;
  post_id: string | null;
  comment_id: string | null;
  created_at: string;
}

const insertUnlessNotified = prepared((db, row: NotificationsTable & Record<string, unknown>) =>
  db
    .insertInto('notifications')
    .values(row)
    .onConflict((oc) => oc.columns(['actor_id', 'user_id', 'type', 'subject_id']).doNothing())
    .returning('id'),
);

/**
 * Inserts it unless the same action already notified its user; true when a row was added. One about
 * a comment keeps no post id: its post is the comment's, and the post's index is then written only
 * for likes (a comment's notification wrote a page of it of its own; issue 31, migration 021).
 */
export function* insertNotificationSteps(notification: NewNotification): Steps<boolean> {
  const row: NotificationsTable & Record<string, unknown> = {
    ...notification,
    post_id: notification.comment_id ? null : notification.post_id,
    subject_id: notification.comment_id ?? notification.post_id ?? '',
    read_at: null,
  };
  return (yield* ask(insertUnlessNotified, row)).length > 0;
}

const silencing = prepared((db, v: { userId: string; actorId: string }) => {
  const blocked = db
    .selectFrom('blocks')
    .select('blocks.id')
    .where((eb) =>
      eb.or([
        eb.and([eb('blocks.user_id', '=', v.userId), eb('blocks.target_id', '=', v.actorId)]),
        eb.and([eb('blocks.user_id', '=', v.actorId), eb('blocks.target_id', '=', v.userId)]),
      ]),
    );
  const muted = db
    .selectFrom('mutes')
    .select('mutes.id')
    .where('mutes.user_id', '=', v.userId)
    .where('mutes.target_id', '=', v.actorId);
  // A silenced domain's person the user does not follow (as Mastodon filters a limited account's).
  const silenced = db
    .selectFrom('users')
    .select('users.id')
    .where('users.id', '=', v.actorId)
    .where('users.domain_silenced', '=', 1)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('follows')
            .select('follows.id')
            .where('follows.follower_id', '=', v.userId)
            // Correlated to the actor's row: probed only for a silenced actor (the follows index is
            // large and cold, and an uncorrelated subquery is run first, for every action).
            .whereRef('follows.followee_id', '=', 'users.id'),
        ),
      ),
    );
  return blocked.unionAll(muted).unionAll(silenced).limit(literalLimit(1));
});

/**
 * True when `userId` should not hear of `actorId`: a block either way, `userId` mutes them, or they
 * are a silenced domain's person `userId` does not follow.
 */
export function* isSilencedSteps(userId: string, actorId: string): Steps<boolean> {
  return (yield* ask(silencing, { userId, actorId })).length > 0;
}

const unreadOfAction = prepared(
  (db, v: { userId: string; type: NotificationType; actorId: string; subjectId: string }) =>
    db
      .deleteFrom('notifications')
      .where('user_id', '=', v.userId)
      .where('type', '=', v.type)
      .where('actor_id', '=', v.actorId)
      .where('subject_id', '=', v.subjectId)
      .where((eb) =>
        eb(
          'id',
          '>',
          eb.fn.coalesce(
            eb.selectFrom('users').select('users.notifications_read_to').where('users.id', '=', v.userId),
            sql.lit(''),
          ),
        ),
      )
      .returning('id'),
);

/**
 * An undone action (a like taken back, an unfollow) takes its notification back, if still unread;
 * true when it did.
 */
export function* removeUnreadSteps(action: {
  userId: string;
  type: NotificationType;
  actorId: string;
  subjectId: string;
}): Steps<boolean> {
  return (yield* ask(unreadOfAction, { ...action })).length > 0;
}

/**
 * Who holds unread notifications about the post (its comments' included) or the comment: read
 * before deleting it, whose cascade takes them, so their streams can be sent the new count.
 */
async function unreadRecipientsAbout(
  db: Queryable,
  about: { postId: string } | { commentId: string },
): Promise<string[]> {
  const query = db
    .selectFrom('notifications')
    .innerJoin('users as recipient', 'recipient.id', 'notifications.user_id')
    .select('notifications.user_id')
    .distinct()
    .where(isUnread);
  const rows = await (
    'postId' in about
      ? query.where((eb) =>
          eb.or([
            eb('notifications.post_id', '=', about.postId),
            eb(
              'notifications.comment_id',
              'in',
              eb.selectFrom('comments').select('comments.id').where('comments.post_id', '=', about.postId),
            ),
          ]),
        )
      : query.where('notifications.comment_id', '=', about.commentId)
  ).execute();
  return rows.map((row) => row.user_id);
}

const mentionsSent = prepared((db, v: { actorId: string; since: string; upTo: number }) =>
  db
    .selectFrom('notifications')
    .select('id')
    .where('actor_id', '=', v.actorId)
    .where('type', '=', 'mention')
    .where('created_at', '>=', v.since)
    .limit(literalLimit(v.upTo)),
);

/** Mention notifications `actorId` has sent since `since` (an ISO time), counted up to `upTo`. */
export function* mentionsSentSinceSteps(actorId: string, since: string, upTo: number): Steps<number> {
  return (yield* ask(mentionsSent, { actorId, since, upTo })).length;
}

const queries = bindQueries({
  listNotifications,
  notificationsAfter,
  findNotification,
  unreadCount,
  markRead,
  deleteNotifications,
  unreadRecipientsAbout,
});

/** The queries on notifications, bound to a database or a transaction. */
export const notificationsRepository = (db: Queryable) => ({
  ...queries(db),
  /** Steps on the same handle or transaction (`notify.ts` writes and takes back notifications as steps). */
  run: <T>(steps: Steps<T>): Promise<T> => stepsOn(db, steps),
});

export type NotificationsRepository = ReturnType<typeof notificationsRepository>;
