/**
 * Approve followers (issue 70, item 1): a follow of someone who approves followers is a request
 * (`follow_requests`), which they approve (it becomes a follow, counted and in feeds) or reject;
 * the requester may withdraw it. They may also remove a follower without blocking them, and
 * turning the setting off approves every waiting request. Ownership: every answer names a request
 * *to the session's user*, so nobody answers another person's requests.
 */
import type { PersonResult } from '../../lib/types';
import type { Transactional } from '../db/repository';
import { NotFoundError } from '../domain/errors';
import { newId, nowIso } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import type { NotificationChange } from '../events/events';
import type { PublishEvent } from '../events/domainEvents';
import { notify, withdrawUnread } from '../notifications/notify';
import type { NotificationsRepository } from '../notifications/repository';
import type { FollowRequestsCache } from './followRequestsCache';
import { toPersonResult } from './personRows';
import type { UsersRepository } from './repository';

export interface FollowRequestsDeps {
  data: Transactional<{ users: UsersRepository; notifications: NotificationsRepository }>;
  followRequests: Pick<FollowRequestsCache, 'waitingFor'>;
  publish: PublishEvent;
}

export type FollowRequestPerson = PersonResult & { requestId: string; requestedAt: string };

const noRequest = () => new NotFoundError('No follow request from this person is waiting', 'FollowRequestNotFound');
const notFollower = () => new NotFoundError('This person does not follow you', 'NotFollower');

export function followRequestActions({ data, followRequests, publish }: FollowRequestsDeps) {
  const { users } = data;
  const changes = (...all: (NotificationChange | null)[]) => all.filter((c): c is NotificationChange => c !== null);

  /** Inside a transaction: the request becomes a follow; its notification goes while unread. */
  async function approveIn(
    trx: { users: UsersRepository; notifications: NotificationsRepository },
    followerId: string,
    followeeId: string,
  ) {
    const taken = await trx.users.takeFollowRequest(followerId, followeeId);
    if (!taken) return null;
    if (
      await trx.users.insertFollow({
        id: newId(),
        follower_id: followerId,
        followee_id: followeeId,
        created_at: nowIso(),
      })
    )
      await trx.users.addToFollowCounters(followerId, followeeId, 1);
    const withdrawn = { userId: followeeId, type: 'followRequest', actorId: followerId, subjectId: '' } as const;
    return { activityUri: taken.activity_uri, unreadFell: await withdrawUnread(trx.notifications, withdrawn) };
  }

  return {
    /**
     * Keeps a request of `followerId` to `followeeId` (the follow rule's part for someone who
     * approves followers) and notifies them; false when one was waiting already.
     */
    async request(followerId: string, followeeId: string, activityUri: string | null = null): Promise<boolean> {
      const requested = await data.transaction(async (trx) => {
        const added = await trx.users.insertFollowRequest({
          id: newId(),
          follower_id: followerId,
          followee_id: followeeId,
          activity_uri: activityUri,
          created_at: nowIso(),
        });
        if (!added) return null;
        return notify(trx.notifications, { type: 'followRequest', userId: followeeId, actorId: followerId });
      });
      if (requested === null) return (await users.findFollowRequest(followerId, followeeId)) !== undefined;
      publish({ type: 'FollowRequested', followerId, followeeId, notifications: changes(requested) });
      return true;
    },

    /** Whether `followerId` waits for `followeeId`'s answer (kept). */
    async isRequested(followerId: string, followeeId: string): Promise<boolean> {
      return (await followRequests.waitingFor(followeeId)).has(followerId);
    },

    /** How many people wait for the user's answer (the badge; kept). */
    async count(viewer: AuthUser): Promise<number> {
      return (await followRequests.waitingFor(viewer.id)).size;
    },

    /** The people waiting for the viewer's answer, newest first. */
    async list(viewer: AuthUser, page: Page): Promise<FollowRequestPerson[]> {
      const rows = await users.listFollowRequests(viewer.id, page.cursor, page.limit + 1);
      return rows.map((r) => ({ ...toPersonResult(r), requestId: r.request_id, requestedAt: r.requested_at }));
    },

    /** The viewer approves `followerId`'s request: a follow from now on. */
    async approve(viewer: AuthUser, followerId: string): Promise<void> {
      const approved = await data.transaction((trx) => approveIn(trx, followerId, viewer.id));
      if (!approved) throw noRequest();
      publish({
        type: 'Followed',
        followerId,
        followeeId: viewer.id,
        approved: { activityUri: approved.activityUri },
        notifications: changes(approved.unreadFell),
      });
    },

    /** The viewer rejects `followerId`'s request. */
    async reject(viewer: AuthUser, followerId: string): Promise<void> {
      await this.drop(followerId, viewer.id, 'followee');
    },

    /**
     * Ends a waiting request without a follow: rejected (`by` the followee) or withdrawn (`by`
     * the follower); a NotFound when none waits.
     */
    async drop(followerId: string, followeeId: string, by: 'followee' | 'follower'): Promise<void> {
      const dropped = await data.transaction(async (trx) => {
        const taken = await trx.users.takeFollowRequest(followerId, followeeId);
        if (!taken) return null;
        const withdrawn = { userId: followeeId, type: 'followRequest', actorId: followerId, subjectId: '' } as const;
        return { activityUri: taken.activity_uri, unreadFell: await withdrawUnread(trx.notifications, withdrawn) };
      });
      if (!dropped) throw noRequest();
      publish({
        type: 'FollowRequestDropped',
        followerId,
        followeeId,
        by,
        activityUri: dropped.activityUri,
        notifications: changes(dropped.unreadFell),
      });
    },

    /** The viewer removes a follower, without blocking them: they may ask again. */
    async removeFollower(viewer: AuthUser, followerId: string): Promise<void> {
      const removed = await data.transaction(async (trx) => {
        if (!(await trx.users.deleteFollow(followerId, viewer.id))) return null;
        await trx.users.addToFollowCounters(followerId, viewer.id, -1);
        const withdrawn = { userId: viewer.id, type: 'follow', actorId: followerId, subjectId: '' } as const;
        return { unreadFell: await withdrawUnread(trx.notifications, withdrawn) };
      });
      if (!removed) throw notFollower();
      publish({
        type: 'Unfollowed',
        followerId,
        followeeId: viewer.id,
        byFollowee: true,
        notifications: changes(removed.unreadFell),
      });
    },

    /**
     * Turns "Approve followers" on or off; off approves every waiting request (each published as
     * an approval). Nothing happens when it is as asked already.
     */
    async setApproval(userId: string, on: boolean): Promise<void> {
      const approved = await data.transaction(async (trx) => {
        const row = await trx.users.findUserById(userId);
        if (!row || (Number(row.approve_followers) === 1) === on) return null;
        await trx.users.updateUser(userId, { approve_followers: on ? 1 : 0, updated_at: nowIso() });
        const done = [];
        if (!on)
          for (const { follower_id: followerId } of await trx.users.allFollowRequestsTo(userId)) {
            const one = await approveIn(trx, followerId, userId);
            if (one) done.push({ followerId, ...one });
          }
        return done;
      });
      if (approved === null) return;
      publish({ type: 'FollowApprovalChanged', userId, approveFollowers: on });
      for (const one of approved)
        publish({
          type: 'Followed',
          followerId: one.followerId,
          followeeId: userId,
          approved: { activityUri: one.activityUri },
          notifications: changes(one.unreadFell),
        });
    },

    /**
     * Someone elsewhere accepted a local person's request (their `Accept`): it becomes a follow.
     * False when none was waiting.
     */
    async accepted(followerId: string, followeeId: string): Promise<boolean> {
      const approved = await data.transaction((trx) => approveIn(trx, followerId, followeeId));
      if (!approved) return false;
      publish({ type: 'Followed', followerId, followeeId, approved: { activityUri: null } });
      return true;
    },
  };
}

export type FollowRequestActions = ReturnType<typeof followRequestActions>;
