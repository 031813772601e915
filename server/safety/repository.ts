/** Queries on blocks and mutes. No HTTP, no rules. */
import { sql } from 'kysely';
import { newestFirst } from '../db/keyset';
import { prepared } from '../db/prepared';
import { bindQueries } from '../db/repository';
import type { Queryable } from '../db/schema';
import { unplanned } from '../db/stablePlans';
import { readTo } from '../notifications/repository';

export type Relation = 'blocks' | 'mutes';

/** Adds the row unless it exists; true when a row was added. */
async function insertRelation(
  db: Queryable,
  table: Relation,
  row: { id: string; user_id: string; target_id: string; created_at: string },
): Promise<boolean> {
  const result = await db
    .insertInto(table)
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'target_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

async function deleteRelation(db: Queryable, table: Relation, userId: string, targetId: string): Promise<boolean> {
  const result = await db
    .deleteFrom(table)
    .where('user_id', '=', userId)
    .where('target_id', '=', targetId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export interface RelationListRow {
  relation_id: string;
  id: string;
  username: string;
  avatar: string | null;
  description: string;
}

/** The people a user blocks (or mutes), newest first, after the cursor. */
function listRelations(db: Queryable, table: Relation, userId: string, cursor: string | null, limit: number) {
  const query = db
    .selectFrom(`${table} as r`)
    .innerJoin('users', 'users.id', 'r.target_id')
    .select(['r.id as relation_id', 'users.id', 'users.username', 'users.avatar', 'users.description'])
    .where('r.user_id', '=', unplanned(db, userId));
  return newestFirst(query, 'r.id', cursor, limit).execute() as Promise<RelationListRow[]>;
}

/** What stands between a viewer and another user: the viewer's block and mute, and a block of the viewer. */
/** One statement for all four (a profile asked four before): on PostgreSQL each is a round trip. */
const relationsOf = prepared((db, v: { viewerId: string; otherId: string }) =>
  db.selectNoFrom((eb) => [
    eb
      .exists(eb.selectFrom('blocks').select('id').where('user_id', '=', v.viewerId).where('target_id', '=', v.otherId))
      .as('blocked_by_me'),
    eb
      .exists(eb.selectFrom('blocks').select('id').where('user_id', '=', v.otherId).where('target_id', '=', v.viewerId))
      .as('blocks_me'),
    eb
      .exists(eb.selectFrom('mutes').select('id').where('user_id', '=', v.viewerId).where('target_id', '=', v.otherId))
      .as('muted_by_me'),
    eb
      .exists(
        eb
          .selectFrom('follows')
          .select('id')
          .where('follower_id', '=', v.viewerId)
          .where('followee_id', '=', v.otherId),
      )
      .as('followed_by_me'),
  ]),
);

/** How the viewer and another person relate: blocks either way, the viewer's mute and follow. */
async function relationsBetween(
  db: Queryable,
  viewerId: string,
  otherId: string,
): Promise<{ blockedByMe: boolean; mutedByMe: boolean; blocksMe: boolean; followedByMe: boolean }> {
  const [row] = await relationsOf(db, { viewerId, otherId });
  // SQLite answers 0/1, PostgreSQL true/false.
  return {
    blockedByMe: Number(row.blocked_by_me) === 1,
    blocksMe: Number(row.blocks_me) === 1,
    mutedByMe: Number(row.muted_by_me) === 1,
    followedByMe: Number(row.followed_by_me) === 1,
  };
}

/** Of `ids`, those with a block between them and `userId`, either way. */
async function blockedAmong(db: Queryable, userId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('blocks')
    .select(['user_id', 'target_id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('user_id', '=', userId), eb('target_id', 'in', ids)]),
        eb.and([eb('target_id', '=', userId), eb('user_id', 'in', ids)]),
      ]),
    )
    .execute();
  return new Set(rows.map((r) => (r.user_id === userId ? r.target_id : r.user_id)));
}

/**
 * Everyone hidden from `readerId`, one row per relation (`kind`, hiddenAuthors.ts): blocked by them
 * (0), muted by them (1), blocking them (3); and the silenced domains' people they follow (2), whom
 * they are shown, and the muted people they follow (4), whose followers-only posts they may read.
 */
function hiddenAuthorsOf(db: Queryable, readerId: string) {
  const reader = unplanned(db, readerId);
  return db
    .selectFrom('blocks')
    .select(['target_id as id', sql<number>`0`.as('kind')])
    .where('user_id', '=', reader)
    .unionAll(
      db
        .selectFrom('blocks')
        .select(['user_id as id', sql<number>`3`.as('kind')])
        .where('target_id', '=', reader),
    )
    .unionAll(
      db
        .selectFrom('mutes')
        .select(['target_id as id', sql<number>`1`.as('kind')])
        .where('user_id', '=', reader),
    )
    .unionAll(
      db
        .selectFrom('follows')
        .innerJoin('users', 'users.id', 'follows.followee_id')
        .select(['follows.followee_id as id', sql<number>`2`.as('kind')])
        .where('follows.follower_id', '=', reader)
        .where('users.domain_silenced', '=', 1),
    )
    .unionAll(
      db
        .selectFrom('mutes')
        .innerJoin('follows', (join) =>
          join.onRef('follows.follower_id', '=', 'mutes.user_id').onRef('follows.followee_id', '=', 'mutes.target_id'),
        )
        .select(['mutes.target_id as id', sql<number>`4`.as('kind')])
        .where('mutes.user_id', '=', reader),
    )
    .execute();
}

/** Removes the follows between two users, both ways; the follower of each removed row. */
async function deleteFollowsBetween(db: Queryable, a: string, b: string): Promise<{ follower_id: string }[]> {
  return db
    .deleteFrom('follows')
    .where((eb) =>
      eb.or([
        eb.and([eb('follower_id', '=', a), eb('followee_id', '=', b)]),
        eb.and([eb('follower_id', '=', b), eb('followee_id', '=', a)]),
      ]),
    )
    .returning('follower_id')
    .execute();
}

/** Removes the waiting follow requests between two users, both ways (issue 70). */
async function deleteFollowRequestsBetween(db: Queryable, a: string, b: string): Promise<void> {
  await db
    .deleteFrom('follow_requests')
    .where((eb) =>
      eb.or([
        eb.and([eb('follower_id', '=', a), eb('followee_id', '=', b)]),
        eb.and([eb('follower_id', '=', b), eb('followee_id', '=', a)]),
      ]),
    )
    .execute();
}

/** Deletes the notifications `actorId` caused `userId`; true when an unread one was among them. */
async function deleteNotificationsFrom(db: Queryable, userId: string, actorId: string): Promise<boolean> {
  const rows = await db
    .deleteFrom('notifications')
    .where('user_id', '=', userId)
    .where('actor_id', '=', actorId)
    .returning('id')
    .execute();
  const from = rows.length > 0 ? await readTo(db, userId) : '';
  return rows.some((row) => row.id > from);
}

/** The queries on blocks and mutes, bound to a database or a transaction. */
export const safetyRepository = bindQueries({
  insertRelation,
  deleteRelation,
  listRelations,
  relationsBetween,
  blockedAmong,
  hiddenAuthorsOf,
  deleteFollowsBetween,
  deleteFollowRequestsBetween,
  deleteNotificationsFrom,
});

export type SafetyRepository = ReturnType<typeof safetyRepository>;
