/** Queries on users and follows. No HTTP, no rules. */
import { sql } from 'kysely';
import { usernameKey } from '../../lib/validation';
import { dialectOf } from '../db/database';
import { newestFirst } from '../db/keyset';
import { prepared } from '../db/prepared';
import { bindQueries } from '../db/repository';
import { type Steps, ask, stepsOn } from '../db/steps';
import type { NewUser, Queryable, UserRow, UserUpdate } from '../db/schema';
import { literalLimit, stableInList, unplanned } from '../db/stablePlans';
import { visibleAuthor } from '../safety/visibility';
import { type PersonRow, personColumns } from './personRows';

const userWithId = prepared((db, v: { id: string }) => db.selectFrom('users').selectAll().where('id', '=', v.id));
const findUserById = async (db: Queryable, id: string): Promise<UserRow | undefined> =>
  (await userWithId(db, { id }))[0];

/** Local accounts only: people elsewhere have no address and never sign in, reset or verify. */
const findUserByEmail = (db: Queryable, email: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .where('domain', 'is', null)
    .executeTakeFirst();

const userNamed = prepared((db, v: { usernameLower: string }) =>
  db.selectFrom('users').selectAll().where('username_lower', '=', v.usernameLower),
);
const findUserByUsername = async (db: Queryable, username: string): Promise<UserRow | undefined> =>
  (await userNamed(db, { usernameLower: usernameKey(username) }))[0];

/** Any local account: people kept from elsewhere (issue 32) never make a sign-up the second. */
const anyUser = async (db: Queryable) =>
  (await db.selectFrom('users').select('id').where('domain', 'is', null).limit(1).executeTakeFirst()) !== undefined;

// Any fixed number: the advisory lock that orders sign-ups into an empty PostgreSQL database.
const FIRST_ACCOUNT_LOCK = 0x506f737473;

/**
 * Inside a sign-up's transaction: true when the account about to be inserted is the first. On
 * PostgreSQL, sign-ups into an empty database take turns on a transaction-scoped lock and look
 * again once they hold it, so two racing sign-ups cannot both see it empty; SQLite runs one write
 * transaction at a time. Once a user exists nobody waits.
 */
async function isFirstAccount(db: Queryable): Promise<boolean> {
  if (await anyUser(db)) return false;
  if (dialectOf(db) === 'postgres') await sql`SELECT pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK})`.execute(db);
  return !(await anyUser(db));
}

/** True while a deleted account's username is held (`retired_until` still ahead). */
const isUsernameRetired = async (db: Queryable, username: string, now: string) =>
  (await db
    .selectFrom('retired_usernames')
    .select('username_lower')
    .where('username_lower', '=', usernameKey(username))
    .where('retired_until', '>', now)
    .executeTakeFirst()) !== undefined;

const insertUser = (db: Queryable, user: NewUser) => db.insertInto('users').values(user).execute();

const updateUser = (db: Queryable, id: string, changes: UserUpdate) =>
  db.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();

/** Profile links written unless they changed since `before` was read (link verification): true when written. */
async function replaceProfileFields(db: Queryable, id: string, before: string | null, after: string | null) {
  const result = await db
    .updateTable('users')
    .set({ profile_fields: after })
    .where('id', '=', id)
    .where((eb) => (before === null ? eb('profile_fields', 'is', null) : eb('profile_fields', '=', before)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Swaps a password hash for a new one of the same password, unless the password changed meanwhile. */
const replacePasswordHash = (db: Queryable, id: string, oldHash: string, newHash: string) =>
  db
    .updateTable('users')
    .set({ password_hash: newHash })
    .where('id', '=', id)
    .where('password_hash', '=', oldHash)
    .execute();

async function isFollowing(db: Queryable, followerId: string, followeeId: string): Promise<boolean> {
  const row = await db
    .selectFrom('follows')
    .select('id')
    .where('follower_id', '=', followerId)
    .where('followee_id', '=', followeeId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Inserts the follow unless it exists; true when a row was added. */
async function insertFollow(
  db: Queryable,
  follow: { id: string; follower_id: string; followee_id: string; created_at: string },
): Promise<boolean> {
  const result = await db
    .insertInto('follows')
    .values(follow)
    .onConflict((oc) => oc.columns(['follower_id', 'followee_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

async function deleteFollow(db: Queryable, followerId: string, followeeId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('follows')
    .where('follower_id', '=', followerId)
    .where('followee_id', '=', followeeId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

type UserCounter = 'followers_count' | 'following_count' | 'posts_count';
// One statement per counter, built once (`prepared`; the delta, a small number, is keyed into its SQL).
const counterBy = (column: UserCounter) =>
  prepared((db, v: { userId: string; delta: number }) =>
    db
      .updateTable('users')
      .set({ [column]: sql`${sql.ref(column)} + ${v.delta}` })
      .where('id', '=', v.userId),
  );
const COUNTERS = {
  followers_count: counterBy('followers_count'),
  following_count: counterBy('following_count'),
  posts_count: counterBy('posts_count'),
};

/** A user's counter moved by `delta`, as a step of a write (`db/steps.ts`). */
export function* addToCounterSteps(userId: string, column: UserCounter, delta: number): Steps<void> {
  yield* ask(COUNTERS[column], { userId, delta });
}

const addToCounter = (db: Queryable, userId: string, column: UserCounter, delta: number) =>
  stepsOn(db, addToCounterSteps(userId, column, delta));

/**
 * A follow's two counters: the followee's `followers_count` and the follower's `following_count`,
 * updated in id order. Two people following each other at once then lock the two rows in the same
 * order and one waits, where "the followee's, then mine" deadlocked one of them on PostgreSQL.
 */
async function addToFollowCounters(db: Queryable, followerId: string, followeeId: string, delta: number) {
  const updates = [
    { userId: followeeId, column: 'followers_count' as const },
    { userId: followerId, column: 'following_count' as const },
  ].sort((a, b) => (a.userId < b.userId ? -1 : 1));
  for (const { userId, column } of updates) await addToCounter(db, userId, column, delta);
}

/** Keeps the request unless one for the pair exists; true when a row was added. */
async function insertFollowRequest(
  db: Queryable,
  request: { id: string; follower_id: string; followee_id: string; activity_uri: string | null; created_at: string },
): Promise<boolean> {
  const result = await db
    .insertInto('follow_requests')
    .values(request)
    .onConflict((oc) => oc.columns(['follower_id', 'followee_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes the waiting request of the pair and answers it (its `Follow` elsewhere), or undefined. */
async function takeFollowRequest(db: Queryable, followerId: string, followeeId: string) {
  return db
    .deleteFrom('follow_requests')
    .where('follower_id', '=', followerId)
    .where('followee_id', '=', followeeId)
    .returning(['id', 'activity_uri'])
    .executeTakeFirst();
}

/** The waiting request of the pair, or undefined. */
function findFollowRequest(db: Queryable, followerId: string, followeeId: string) {
  return db
    .selectFrom('follow_requests')
    .select(['id', 'follower_id', 'followee_id', 'activity_uri'])
    .where('follower_id', '=', followerId)
    .where('followee_id', '=', followeeId)
    .executeTakeFirst();
}

/** Everyone waiting for the followees' answers (the kept sets, `followRequestsCache.ts`). */
function followRequestsTo(db: Queryable, followeeIds: string[]) {
  return db
    .selectFrom('follow_requests')
    .select(['follower_id', 'followee_id'])
    .where('followee_id', 'in', followeeIds)
    .execute();
}

/** The requesters of every waiting request to `followeeId`, oldest first (turning approval off approves them). */
function allFollowRequestsTo(db: Queryable, followeeId: string) {
  return db
    .selectFrom('follow_requests')
    .select(['follower_id', 'activity_uri'])
    .where('followee_id', '=', followeeId)
    .orderBy('id')
    .execute();
}

export interface FollowRequestRow extends PersonRow {
  request_id: string;
  requested_at: string;
}

/** The people waiting for `userId`'s answer, newest request first, after the cursor, without those hidden. */
function listFollowRequests(db: Queryable, userId: string, cursor: string | null, limit: number) {
  const query = db
    .selectFrom('follow_requests')
    .innerJoin('users', 'users.id', 'follow_requests.follower_id')
    .select([
      'follow_requests.id as request_id',
      'follow_requests.created_at as requested_at',
      ...personColumns(db, userId),
    ])
    .where('follow_requests.followee_id', '=', userId)
    .where(visibleAuthor(db, userId, { author: 'users.id', authorRow: 'users', place: 'content' }));
  return newestFirst(query, 'follow_requests.id', cursor, limit).execute() as Promise<FollowRequestRow[]>;
}

export interface FollowListRow extends PersonRow {
  follow_id: string;
}

/**
 * Followers (`side = 'followers'`) or followees of a user, newest follow first, after the cursor,
 * without those hidden from the viewer.
 */
function listFollows(
  db: Queryable,
  viewerId: string,
  userId: string,
  side: 'followers' | 'following',
  cursor: string | null,
  limit: number,
) {
  const [own, other] =
    side === 'followers' ? (['followee_id', 'follower_id'] as const) : (['follower_id', 'followee_id'] as const);
  // Literal LIMIT and an unplanned user id keep the SQLite statement prepared (stablePlans.ts).
  const query = db
    .selectFrom('follows')
    .innerJoin('users', 'users.id', `follows.${other}`)
    .select(['follows.id as follow_id', ...personColumns(db, viewerId)])
    .where(`follows.${own}`, '=', unplanned(db, userId))
    .where(visibleAuthor(db, viewerId, { author: 'users.id', authorRow: 'users', place: 'content' }));
  return newestFirst(query, 'follows.id', cursor, limit).execute() as Promise<FollowListRow[]>;
}

/** Most people one search answers. */
export const USER_SEARCH_MAX = 20;

/**
 * Users whose lower-cased name is in [from, to), by name: a range scan of an index on
 * `username_lower`. PostgreSQL compares in "C" (byte order, its own index, migration 003),
 * where a prefix range is exact; SQLite's default collation already is.
 */
export function usersInRange(db: Queryable, v: { viewerId: string; from: string; to: string }) {
  const key =
    dialectOf(db) === 'postgres' ? sql<string>`users.username_lower COLLATE "C"` : sql<string>`users.username_lower`;
  return db
    .selectFrom('users')
    .select(personColumns(db, v.viewerId))
    .where(visibleAuthor(db, v.viewerId, { author: 'users.id', authorRow: 'users', place: 'across' }))
    .where(key, '>=', unplanned(db, v.from))
    .where(key, '<', unplanned(db, v.to))
    .orderBy(key)
    .limit(literalLimit(USER_SEARCH_MAX));
}

const usersInRangeQuery = prepared(usersInRange);

/** The first string after every one that starts with `prefix`: its last character plus one. */
const pastPrefix = (prefix: string) =>
  prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

/** Users whose lower-cased name starts with `prefix` (itself lower-case, of username characters). */
function searchUsers(db: Queryable, viewerId: string, prefix: string) {
  return usersInRangeQuery(db, { viewerId, from: prefix, to: pastPrefix(prefix) });
}

/**
 * The people `viewerId` follows whose lower-cased name is in [from, to), by name, shown by the same
 * rule as search (`across`): the mention suggestions' first rows. Read from the viewer's follows,
 * so it stays small however many people share the prefix.
 */
export function followedInRange(db: Queryable, v: { viewerId: string; from: string; to: string }) {
  const key =
    dialectOf(db) === 'postgres' ? sql<string>`users.username_lower COLLATE "C"` : sql<string>`users.username_lower`;
  return db
    .selectFrom('follows')
    .innerJoin('users', 'users.id', 'follows.followee_id')
    .select(['users.id', 'users.username', 'users.avatar', 'users.description'])
    .where('follows.follower_id', '=', unplanned(db, v.viewerId))
    .where(visibleAuthor(db, v.viewerId, { author: 'users.id', authorRow: 'users', place: 'across' }))
    .where(key, '>=', unplanned(db, v.from))
    .where(key, '<', unplanned(db, v.to))
    .orderBy(key)
    .limit(literalLimit(USER_SEARCH_MAX));
}

const followedInRangeQuery = prepared(followedInRange);

/**
 * Mention suggestions for `prefix` (lower-case): the people the viewer follows first, then everyone
 * else search would find (local and kept remote people alike: `name@host` is a username too).
 */
async function suggestUsers(db: Queryable, viewerId: string, prefix: string) {
  const range = { viewerId, from: prefix, to: pastPrefix(prefix) };
  const [followed, everyone] = await Promise.all([followedInRangeQuery(db, range), usersInRangeQuery(db, range)]);
  return { followed, everyone };
}

/** The users with these lower-cased names, in one statement (the in-list padded to a stable size). */
const usersNamedQuery = prepared((db, v: { keys: string[] }) =>
  db.selectFrom('users').selectAll().where('username_lower', 'in', v.keys),
);
const usersNamed = (db: Queryable, keys: string[]): Promise<UserRow[]> =>
  keys.length === 0 ? Promise.resolve([]) : usersNamedQuery(db, { keys: stableInList(keys) });

/** The queries on users and follows, bound to a database or a transaction. */
export const usersRepository = bindQueries({
  findUserById,
  findUserByEmail,
  findUserByUsername,
  usersNamed,
  isFirstAccount,
  isUsernameRetired,
  insertUser,
  updateUser,
  replaceProfileFields,
  replacePasswordHash,
  isFollowing,
  insertFollow,
  deleteFollow,
  addToCounter,
  addToFollowCounters,
  listFollows,
  insertFollowRequest,
  takeFollowRequest,
  findFollowRequest,
  followRequestsTo,
  allFollowRequestsTo,
  listFollowRequests,
  searchUsers,
  suggestUsers,
});

export type UsersRepository = ReturnType<typeof usersRepository>;
export type { UserRow };
