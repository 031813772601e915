/** Queries on users and follows. No HTTP, no rules. */
import { type RawBuilder, sql } from 'kysely';
import type { Dialect } from '../db/database';
import { newestFirst } from '../db/keyset';
import { prepared } from '../db/prepared';
import type { NewUser, Queryable, UserRow, UserUpdate } from '../db/schema';
import { unplanned } from '../db/stablePlans';

const userWithId = prepared((db, v: { id: string }) => db.selectFrom('users').selectAll().where('id', '=', v.id));
export const findUserById = async (db: Queryable, id: string): Promise<UserRow | undefined> => (await userWithId(db, { id }))[0];

export const findUserByEmail = (db: Queryable, email: string) =>
  db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();

const userNamed = prepared((db, v: { usernameLower: string }) => db.selectFrom('users').selectAll().where('username_lower', '=', v.usernameLower));
export const findUserByUsername = async (db: Queryable, username: string): Promise<UserRow | undefined> =>
  (await userNamed(db, { usernameLower: username.toLowerCase() }))[0];

export async function countUsers(db: Queryable): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export const insertUser = (db: Queryable, user: NewUser) => db.insertInto('users').values(user).execute();

export const updateUser = (db: Queryable, id: string, changes: UserUpdate) =>
  db.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

/** Swaps a password hash for a new one of the same password, unless the password changed meanwhile. */
export const replacePasswordHash = (db: Queryable, id: string, oldHash: string, newHash: string) =>
  db.updateTable('users').set({ password_hash: newHash }).where('id', '=', id).where('password_hash', '=', oldHash).execute();

export async function isFollowing(db: Queryable, followerId: string, followeeId: string): Promise<boolean> {
  const row = await db.selectFrom('follows').select('id')
    .where('follower_id', '=', followerId).where('followee_id', '=', followeeId).executeTakeFirst();
  return row !== undefined;
}

/** The ids as one comma-joined string: one row to read instead of hundreds (half the time). */
const followeeList = (joined: RawBuilder<string | null>) => prepared((db, v: { followerId: string }) =>
  db.selectFrom('follows').select(joined.as('ids')).where('follower_id', '=', v.followerId));
const FOLLOWEE_LISTS: Record<Dialect, ReturnType<typeof followeeList>> = {
  sqlite: followeeList(sql`group_concat(followee_id)`),
  postgres: followeeList(sql`string_agg(followee_id, ',')`),
};

/** Ids of the people a user follows. */
export async function followeeIds(db: Queryable, dialect: Dialect, followerId: string): Promise<string[]> {
  const ids = (await FOLLOWEE_LISTS[dialect](db, { followerId }))[0]?.ids;
  return ids ? ids.split(',') : [];
}

/** Inserts the follow unless it exists; true when a row was added. */
export async function insertFollow(db: Queryable, follow: { id: string; follower_id: string; followee_id: string; created_at: string }): Promise<boolean> {
  const result = await db.insertInto('follows').values(follow)
    .onConflict((oc) => oc.columns(['follower_id', 'followee_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteFollow(db: Queryable, followerId: string, followeeId: string): Promise<boolean> {
  const result = await db.deleteFrom('follows')
    .where('follower_id', '=', followerId).where('followee_id', '=', followeeId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function addToCounter(
  db: Queryable,
  userId: string,
  column: 'followers_count' | 'following_count' | 'posts_count',
  delta: number,
): Promise<void> {
  await db.updateTable('users').set({ [column]: sql`${sql.ref(column)} + ${delta}` }).where('id', '=', userId).execute();
}

export interface FollowListRow {
  follow_id: string;
  id: string;
  username: string;
  avatar: string | null;
  description: string;
}

/** Followers (`side = 'followers'`) or followees of a user, newest follow first, after the cursor. */
export function listFollows(db: Queryable, userId: string, side: 'followers' | 'following', cursor: string | null, limit: number) {
  const [own, other] = side === 'followers' ? (['followee_id', 'follower_id'] as const) : (['follower_id', 'followee_id'] as const);
  // Literal LIMIT and an unplanned user id keep the SQLite statement prepared (stablePlans.ts).
  const query = db.selectFrom('follows')
    .innerJoin('users', 'users.id', `follows.${other}`)
    .select(['follows.id as follow_id', 'users.id', 'users.username', 'users.avatar', 'users.description'])
    .where(`follows.${own}`, '=', unplanned(db, userId));
  return newestFirst(query, 'follows.id', cursor, limit).execute() as Promise<FollowListRow[]>;
}

export type { UserRow };
