/**
 * A person as the web's people lists show one (search, follower and following lists, likers,
 * mention suggestions): the row's columns, whether the viewer follows them (the lists' Follow
 * buttons, issue 68 item 30), and the row as a `PersonResult`. One select and one mapper for all.
 */
import { sql } from 'kysely';
import type { PersonResult } from '../../lib/types';
import type { Queryable } from '../db/schema';
import { unplanned } from '../db/stablePlans';

export interface PersonRow {
  id: string;
  username: string;
  avatar: string | null;
  description: string;
  /** 1/0 on SQLite, true/false on PostgreSQL. */
  followed_by_me: number | boolean;
  /** The viewer's follow request waits for their answer (issue 70); absent from rows that do not ask. */
  requested_by_me?: number | boolean;
}

/** Whether `viewerId` follows the row's `users.id`: correlated, so `users` must be in the query. */
const viewerFollows = (db: Queryable, viewerId: string) =>
  db
    .selectFrom('follows as mine')
    .select('mine.id')
    .where('mine.follower_id', '=', unplanned(db, viewerId))
    .where('mine.followee_id', '=', sql.ref<string>('users.id'));

/** Whether `viewerId` asked to follow the row's `users.id` and waits (issue 70): correlated as above. */
const viewerAsked = (db: Queryable, viewerId: string) =>
  db
    .selectFrom('follow_requests as asked')
    .select('asked.id')
    .where('asked.follower_id', '=', unplanned(db, viewerId))
    .where('asked.followee_id', '=', sql.ref<string>('users.id'));

/** The select list of a person row, for a query that joins `users`. */
export const personColumns = (db: Queryable, viewerId: string) =>
  [
    'users.id',
    'users.username',
    'users.avatar',
    'users.description',
    sql<number | boolean>`exists ${viewerFollows(db, viewerId)}`.as('followed_by_me'),
    sql<number | boolean>`exists ${viewerAsked(db, viewerId)}`.as('requested_by_me'),
  ] as const;

export const toPersonResult = (row: PersonRow): PersonResult => ({
  _id: row.id,
  username: row.username,
  avatar: row.avatar,
  description: row.description,
  followedByMe: Boolean(row.followed_by_me),
  // Only while a request waits: the lists' answers keep their shape for everyone else.
  ...(Boolean(row.requested_by_me) && { followRequestedByMe: true }),
});
