/**
 * Queries of account moves (issue 76, items 3 and 4): a person's aliases and move, and the local
 * followers a move carries over. No rules.
 */
import { usernameKey } from '../../lib/validation';
import { bindQueries } from '../db/repository';
import type { Queryable } from '../db/schema';

const personColumns = [
  'id',
  'username',
  'display_name',
  'domain',
  'actor_uri',
  'also_known_as',
  'moved_to_id',
] as const;

/** A person by id, here or kept from elsewhere. */
function personById(db: Queryable, id: string) {
  return db.selectFrom('users').select(personColumns).where('id', '=', id).executeTakeFirst();
}

export type MovingPerson = NonNullable<Awaited<ReturnType<typeof personById>>>;

/** A local person by name (not suspended: a suspended account is nobody's to move to). */
function localPersonNamed(db: Queryable, username: string) {
  return db
    .selectFrom('users')
    .select(personColumns)
    .where('username_lower', '=', usernameKey(username))
    .where('domain', 'is', null)
    .where('suspended_at', 'is', null)
    .executeTakeFirst();
}

/** A person kept from elsewhere by their actor's address. */
function personWithActorUri(db: Queryable, uri: string) {
  return db.selectFrom('users').select(personColumns).where('actor_uri', '=', uri).executeTakeFirst();
}

async function setAliases(db: Queryable, id: string, uris: string[], now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ also_known_as: uris.length > 0 ? JSON.stringify(uris) : null, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Marks the account moved; false when it had moved already (two moves at once: the first stays). */
async function setMovedTo(db: Queryable, id: string, targetId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ moved_to_id: targetId, moved_at: now, updated_at: now })
    .where('id', '=', id)
    .where('moved_to_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The people here who follow this person (the followers a move carries over). */
async function localFollowersOf(db: Queryable, userId: string) {
  return db
    .selectFrom('follows')
    .innerJoin('users', 'users.id', 'follows.follower_id')
    .select(['users.id', 'users.username', 'users.role'])
    .where('follows.followee_id', '=', userId)
    .where('users.domain', 'is', null)
    .where('users.suspended_at', 'is', null)
    .execute();
}

export const movingRepository = bindQueries({
  personById,
  personWithActorUri,
  localPersonNamed,
  setAliases,
  setMovedTo,
  localFollowersOf,
});

export type MovingRepository = ReturnType<typeof movingRepository>;
