/** Queries on `push_subscriptions` (migration 025). */
import type { Kysely, Selectable } from 'kysely';
import type { Database, PushSubscriptionsTable } from '../db/schema';
import { ALERT_COLUMNS, type PushKind } from './kinds';

export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;

/** Whose subscription: a web session's, or a client API token's (one each). */
export type PushOwner = { userId: string; sessionId: string } | { userId: string; tokenId: string };

const ownedBy = (owner: PushOwner) =>
  'tokenId' in owner ? (['token_id', owner.tokenId] as const) : (['session_id', owner.sessionId] as const);

export function pushRepository(db: Kysely<Database>) {
  return {
    async find(owner: PushOwner): Promise<PushSubscriptionRow | undefined> {
      const [column, id] = ownedBy(owner);
      return db
        .selectFrom('push_subscriptions')
        .selectAll()
        .where(column, '=', id)
        .where('user_id', '=', owner.userId)
        .executeTakeFirst();
    },

    /** The owner's subscription replaced by `row`, in one transaction. */
    async replace(owner: PushOwner, row: PushSubscriptionRow): Promise<void> {
      const [column, id] = ownedBy(owner);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('push_subscriptions').where(column, '=', id).execute();
        await trx.insertInto('push_subscriptions').values(row).execute();
      });
    },

    async update(
      owner: PushOwner,
      changes: Partial<Pick<PushSubscriptionRow, (typeof ALERT_COLUMNS)[PushKind] | 'policy'>>,
    ): Promise<boolean> {
      const [column, id] = ownedBy(owner);
      const result = await db
        .updateTable('push_subscriptions')
        .set(changes)
        .where(column, '=', id)
        .where('user_id', '=', owner.userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async remove(owner: PushOwner): Promise<void> {
      const [column, id] = ownedBy(owner);
      await db.deleteFrom('push_subscriptions').where(column, '=', id).where('user_id', '=', owner.userId).execute();
    },

    /** Gone at the push service (404/410): removed only if it still points there. */
    async removeGone(id: string, endpoint: string): Promise<void> {
      await db.deleteFrom('push_subscriptions').where('id', '=', id).where('endpoint', '=', endpoint).execute();
    },

    /**
     * The user's subscriptions of sessions and tokens still live (a signed-out browser or a
     * revoked app hears nothing, though its row waits for the next subscribe), but `none`'s.
     */
    deliverable(userId: string): Promise<PushSubscriptionRow[]> {
      return db
        .selectFrom('push_subscriptions as ps')
        .leftJoin('sessions as s', 's.id', 'ps.session_id')
        .leftJoin('oauth_tokens as t', 't.id', 'ps.token_id')
        .leftJoin('sessions as ts', 'ts.id', 't.session_id')
        .selectAll('ps')
        .where('ps.user_id', '=', userId)
        .where('ps.policy', '!=', 'none')
        .where((eb) =>
          eb.or([
            eb.and([eb('ps.session_id', 'is not', null), eb('s.revoked_at', 'is', null)]),
            eb.and([
              eb('ps.token_id', 'is not', null),
              eb('t.revoked_at', 'is', null),
              eb.or([eb('t.session_id', 'is', null), eb('ts.revoked_at', 'is', null)]),
            ]),
          ]),
        )
        .execute();
    },

    /** Whether the user follows the actor, and the actor the user (Mastodon's `policy`). */
    async relation(userId: string, actorId: string): Promise<{ followed: boolean; follower: boolean }> {
      const rows = await db
        .selectFrom('follows')
        .select(['follower_id'])
        .where((eb) =>
          eb.or([
            eb.and([eb('follower_id', '=', userId), eb('followee_id', '=', actorId)]),
            eb.and([eb('follower_id', '=', actorId), eb('followee_id', '=', userId)]),
          ]),
        )
        .execute();
      return {
        followed: rows.some((row) => row.follower_id === userId),
        follower: rows.some((row) => row.follower_id === actorId),
      };
    },

    /** The actor of a notification (not in the app's notification shape). */
    async actorOf(notificationId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('notifications')
        .select('actor_id')
        .where('id', '=', notificationId)
        .executeTakeFirst();
      return row?.actor_id;
    },
  };
}

export type PushRepository = ReturnType<typeof pushRepository>;
