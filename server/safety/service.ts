/**
 * Blocks and mutes (issue 23). A block removes the follows both ways and the notifications between
 * the two; a mute takes the muted person out of the muter's feeds and notifications (whose streams
 * are then sent the lower unread count). Both change the home feed's follow lists and the readers'
 * hidden people, so every instance forgets them (the bus: `followsChanged`, `hiddenAuthors.forget`).
 */
import type { Profile, UserSummary } from '../../lib/types';
import type { Transactional } from '../db/repository';
import type { UserRow } from '../db/schema';
import { InvalidError, NotFoundError } from '../domain/errors';
import { newId, nowIso } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import { type NotificationNudge, unnotified } from '../notifications/notify';
import type { HomeFeed } from '../posts/homeFeed';
import { toProfile } from '../users/mappers';
import type { UsersRepository } from '../users/repository';
import type { HiddenAuthorsCache } from './hiddenAuthors';
import type { Relation, SafetyRepository } from './repository';

export const userNotFound = () => new NotFoundError('User not found', 'UserNotFound');

/** A suspended user, or one who blocks the viewer, does not exist for the viewer. */
export const hiddenFrom = (row: UserRow, viewerId: string, relations: { blocksMe: boolean }) =>
  row.id !== viewerId && (row.suspended_at !== null || relations.blocksMe);

export interface SafetyServiceDeps {
  data: Transactional<{ users: UsersRepository; safety: SafetyRepository }>;
  homeFeed: Pick<HomeFeed, 'followsChanged'>;
  hiddenAuthors: Pick<HiddenAuthorsCache, 'forget'>;
  /** Tells the streams whose unread notifications a block or a mute removed, once committed. */
  announce: NotificationNudge;
}

export function safetyService({ data, homeFeed, hiddenAuthors, announce }: SafetyServiceDeps) {
  const { users, safety } = data;

  /** What these users see of others changed: their follow lists and hidden people are read again. */
  function relationsChanged(...userIds: string[]) {
    for (const id of userIds) {
      homeFeed.followsChanged(id);
      hiddenAuthors.forget(id);
    }
  }

  /** The user as the viewer may see them, with how the viewer relates to them; a 404 if hidden. */
  async function requireVisible(viewer: AuthUser, username: string) {
    const row = await users.findUserByUsername(username);
    if (!row) throw userNotFound();
    const relations = await safety.relationsBetween(viewer.id, row.id);
    if (hiddenFrom(row, viewer.id, relations)) throw userNotFound();
    return { row, relations };
  }

  /** Undoing needs the user to exist only: a suspended user stays in the lists until unblocked. */
  async function requireUser(username: string): Promise<UserRow> {
    const row = await users.findUserByUsername(username);
    if (!row) throw userNotFound();
    return row;
  }

  async function profileOf(viewer: AuthUser, id: string): Promise<Profile> {
    const row = (await users.findUserById(id))!;
    const relations = await safety.relationsBetween(viewer.id, id);
    return toProfile(row, { followedByMe: await users.isFollowing(viewer.id, id), ...relations });
  }

  function refuseSelf(viewer: AuthUser, row: UserRow, relation: Relation) {
    if (row.id === viewer.id)
      throw new InvalidError(`You cannot ${relation === 'blocks' ? 'block' : 'mute'} yourself`, 'CannotTargetSelf');
  }

  return {
    requireVisible,

    async block(viewer: AuthUser, username: string): Promise<Profile> {
      const { row } = await requireVisible(viewer, username);
      refuseSelf(viewer, row, 'blocks');
      const unreadFell = await data.transaction(async (trx) => {
        const added = await trx.safety.insertRelation('blocks', {
          id: newId(),
          user_id: viewer.id,
          target_id: row.id,
          created_at: nowIso(),
        });
        if (!added) return [];
        for (const { follower_id: follower } of await trx.safety.deleteFollowsBetween(viewer.id, row.id)) {
          const followee = follower === viewer.id ? row.id : viewer.id;
          await trx.users.addToCounter(follower, 'following_count', -1);
          await trx.users.addToCounter(followee, 'followers_count', -1);
        }
        const fell: string[] = [];
        if (await trx.safety.deleteNotificationsFrom(viewer.id, row.id)) fell.push(viewer.id);
        if (await trx.safety.deleteNotificationsFrom(row.id, viewer.id)) fell.push(row.id);
        return fell;
      });
      relationsChanged(viewer.id, row.id);
      announce(unnotified(unreadFell));
      return profileOf(viewer, row.id);
    },

    async unblock(viewer: AuthUser, username: string): Promise<Profile> {
      const row = await requireUser(username);
      await safety.deleteRelation('blocks', viewer.id, row.id);
      relationsChanged(viewer.id, row.id);
      return profileOf(viewer, row.id);
    },

    async mute(viewer: AuthUser, username: string): Promise<Profile> {
      const { row } = await requireVisible(viewer, username);
      refuseSelf(viewer, row, 'mutes');
      const unreadFell = await data.transaction(async (trx) => {
        const added = await trx.safety.insertRelation('mutes', {
          id: newId(),
          user_id: viewer.id,
          target_id: row.id,
          created_at: nowIso(),
        });
        return added && (await trx.safety.deleteNotificationsFrom(viewer.id, row.id));
      });
      relationsChanged(viewer.id);
      if (unreadFell) announce(unnotified([viewer.id]));
      return profileOf(viewer, row.id);
    },

    async unmute(viewer: AuthUser, username: string): Promise<Profile> {
      const row = await requireUser(username);
      await safety.deleteRelation('mutes', viewer.id, row.id);
      relationsChanged(viewer.id);
      return profileOf(viewer, row.id);
    },

    /** The people the viewer blocks (or mutes), newest first. */
    async list(viewer: AuthUser, relation: Relation, page: Page): Promise<(UserSummary & { relationId: string })[]> {
      const rows = await safety.listRelations(relation, viewer.id, page.cursor, page.limit + 1);
      return rows.map((r) => ({
        _id: r.id,
        username: r.username,
        avatar: r.avatar,
        description: r.description,
        relationId: r.relation_id,
      }));
    },
  };
}

export type SafetyService = ReturnType<typeof safetyService>;
