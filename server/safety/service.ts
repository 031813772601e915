/**
 * Blocks and mutes (issue 23). A block removes the follows both ways and the notifications between
 * the two; a mute takes the muted person out of the muter's feeds and notifications (whose streams
 * are then sent the lower unread count). Each publishes its event once committed (`Blocked`,
 * `Unblocked`, `Muted`, `Unmuted`); what the caches forget is in `invalidation/table.ts`.
 */
import type { Profile, UserSummary } from '../../lib/types';
import type { Transactional } from '../db/repository';
import type { UserRow } from '../db/schema';
import { InvalidError, NotFoundError } from '../domain/errors';
import { newId, nowIso } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import type { PublishEvent } from '../events/domainEvents';
import { unreadFellFor } from '../events/events';
import type { Relation, SafetyRepository } from './repository';
import { mayShow } from './visibility';

export const userNotFound = () => new NotFoundError('User not found', 'UserNotFound');

/** A user whose profile the viewer may not see (`mayShow`, `profile`) does not exist for the viewer. */
export const hiddenFrom = (
  row: Pick<UserRow, 'id' | 'suspended_at' | 'domain_silenced'>,
  viewerId: string,
  relations: { blocksMe: boolean; blockedByMe: boolean; mutedByMe: boolean },
) =>
  row.id !== viewerId &&
  !mayShow(
    {
      suspended: row.suspended_at !== null,
      authorBlocksViewer: relations.blocksMe,
      viewerBlocksAuthor: relations.blockedByMe,
      viewerMutesAuthor: relations.mutedByMe,
      // A silenced domain's profile stays reachable by its address: `profile` reads neither.
      silenced: Number(row.domain_silenced) === 1,
      viewerFollowsAuthor: false,
    },
    'profile',
  );

/** The user as the viewer may see them (a 404 when missing or `hiddenFrom` the viewer), and how they relate. */
export async function requireVisibleUser(
  repos: { users: Pick<SafetyUsers, 'findUserByUsername'>; safety: Pick<SafetyRepository, 'relationsBetween'> },
  viewer: AuthUser,
  username: string,
) {
  const row = await repos.users.findUserByUsername(username);
  if (!row) throw userNotFound();
  const relations = await repos.safety.relationsBetween(viewer.id, row.id);
  if (hiddenFrom(row, viewer.id, relations)) throw userNotFound();
  return { row, relations };
}

/** What blocks and mutes read and write of people (the users' repository, by its shape). */
export interface SafetyUsers {
  findUserByUsername(username: string): Promise<UserRow | undefined>;
  findUserById(id: string): Promise<UserRow | undefined>;
  addToFollowCounters(followerId: string, followeeId: string, delta: number): Promise<void>;
}

export interface SafetyServiceDeps {
  data: Transactional<{ users: SafetyUsers; safety: SafetyRepository }>;
  /** Tells the rest of the app what each write changed, once committed. */
  publish: PublishEvent;
  /** A person as the viewer sees them after the change (`users/mappers.ts`' `toProfile`). */
  toProfile: (row: UserRow, relations: Awaited<ReturnType<SafetyRepository['relationsBetween']>>) => Profile;
}

export function safetyService({ data, publish, toProfile }: SafetyServiceDeps) {
  const { users, safety } = data;

  /** The user as the viewer may see them, with how the viewer relates to them; a 404 if hidden. */
  const requireVisible = (viewer: AuthUser, username: string) => requireVisibleUser(data, viewer, username);

  /** Undoing needs the user to exist only: a suspended user stays in the lists until unblocked. */
  async function requireUser(username: string): Promise<UserRow> {
    const row = await users.findUserByUsername(username);
    if (!row) throw userNotFound();
    return row;
  }

  async function profileOf(viewer: AuthUser, id: string): Promise<Profile> {
    const row = (await users.findUserById(id))!;
    return toProfile(row, await safety.relationsBetween(viewer.id, id));
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
        if (!added) return null; // blocked already: nothing changes
        for (const { follower_id: follower } of await trx.safety.deleteFollowsBetween(viewer.id, row.id)) {
          const followee = follower === viewer.id ? row.id : viewer.id;
          await trx.users.addToFollowCounters(follower, followee, -1);
        }
        await trx.safety.deleteFollowRequestsBetween(viewer.id, row.id);
        const fell: string[] = [];
        if (await trx.safety.deleteNotificationsFrom(viewer.id, row.id)) fell.push(viewer.id);
        if (await trx.safety.deleteNotificationsFrom(row.id, viewer.id)) fell.push(row.id);
        return fell;
      });
      if (unreadFell)
        publish({ type: 'Blocked', userId: viewer.id, targetId: row.id, notifications: unreadFellFor(unreadFell) });
      return profileOf(viewer, row.id);
    },

    async unblock(viewer: AuthUser, username: string): Promise<Profile> {
      const row = await requireUser(username);
      if (await safety.deleteRelation('blocks', viewer.id, row.id))
        publish({ type: 'Unblocked', userId: viewer.id, targetId: row.id });
      return profileOf(viewer, row.id);
    },

    async mute(viewer: AuthUser, username: string): Promise<Profile> {
      const { row } = await requireVisible(viewer, username);
      refuseSelf(viewer, row, 'mutes');
      const muted = await data.transaction(async (trx) => {
        const added = await trx.safety.insertRelation('mutes', {
          id: newId(),
          user_id: viewer.id,
          target_id: row.id,
          created_at: nowIso(),
        });
        if (!added) return null; // muted already: nothing changes
        return { unreadFell: await trx.safety.deleteNotificationsFrom(viewer.id, row.id) };
      });
      if (muted) {
        const notifications = unreadFellFor(muted.unreadFell ? [viewer.id] : []);
        publish({ type: 'Muted', userId: viewer.id, targetId: row.id, notifications });
      }
      return profileOf(viewer, row.id);
    },

    async unmute(viewer: AuthUser, username: string): Promise<Profile> {
      const row = await requireUser(username);
      if (await safety.deleteRelation('mutes', viewer.id, row.id))
        publish({ type: 'Unmuted', userId: viewer.id, targetId: row.id });
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
