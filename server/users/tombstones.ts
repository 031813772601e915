/**
 * Deleted local accounts' names and ids (`federation_tombstones`): the deletion buries the account
 * (users/deletion.ts); federation answers its actor URI with 410 and WebFinger for the name until
 * someone takes it again (federation/tombstones.ts).
 */
import { bindQueries } from '../db/repository';
import type { Queryable } from '../db/schema';

const tombstoneOf = (db: Queryable, userId: string) =>
  db.selectFrom('federation_tombstones').selectAll().where('user_id', '=', userId).executeTakeFirst();

/** The newest deleted account of that name (names are held a while, then may be taken again). */
const tombstoneNamed = (db: Queryable, usernameLower: string) =>
  db
    .selectFrom('federation_tombstones')
    .selectAll()
    .where('username_lower', '=', usernameLower)
    .orderBy('deleted_at', 'desc')
    .executeTakeFirst();

async function bury(db: Queryable, userId: string, usernameLower: string, now: string): Promise<void> {
  await db
    .insertInto('federation_tombstones')
    .values({ user_id: userId, username_lower: usernameLower, deleted_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

export const tombstonesRepository = bindQueries({ tombstoneOf, tombstoneNamed, bury });
export type TombstonesRepository = ReturnType<typeof tombstonesRepository>;
