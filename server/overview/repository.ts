/**
 * The admin overview's figures, one statement each. Posts, comments and users have UUIDv7 ids, so
 * "made since" is a range of the primary key; active people come from the sessions' last use
 * (`sessions_last_used_idx`). The media total is the one that reads every `media` row.
 */
import { sql } from 'kysely';
import { bindQueries } from '../db/repository';
import { dialectOf } from '../db/database';
import type { Queryable } from '../db/schema';
import { idFloorAt } from '../domain/ids';

const count = (row: { n: number | string | bigint | null } | undefined) => Number(row?.n ?? 0);

const countPeople = async (db: Queryable) =>
  count(
    await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      // This instance's people: those kept from elsewhere (issue 32) are not its accounts.
      .where('domain', 'is', null)
      .executeTakeFirst(),
  );

const countSignedUpSince = async (db: Queryable, sinceMs: number) =>
  count(
    await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', '>=', idFloorAt(sinceMs))
      .where('domain', 'is', null)
      .executeTakeFirst(),
  );

/**
 * Active: a session used (signed in, or refreshed: at least every 15 minutes of use) since then.
 * Every post, comment and reaction needs such a session, so this counts those people too.
 */
const countActiveSince = async (db: Queryable, sinceMs: number) =>
  count(
    await db
      .selectFrom('sessions')
      .select((eb) => eb.fn.count<number>('user_id').distinct().as('n'))
      .where('last_used_at', '>=', new Date(sinceMs).toISOString())
      .executeTakeFirst(),
  );

/** Rows made since then per UTC day (`created_at` is an ISO string in UTC), days without any left out. */
const perDaySince = (db: Queryable, table: 'posts' | 'comments', sinceMs: number) =>
  db
    .selectFrom(table)
    .select([sql<string>`substr(created_at, 1, 10)`.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('id', '>=', idFloorAt(sinceMs))
    .where('uri', 'is', null)
    .groupBy(sql`substr(created_at, 1, 10)`)
    .execute()
    .then((rows) => new Map(rows.map((row) => [row.day, Number(row.n)])));

const countOpenReports = async (db: Queryable) =>
  count(
    await db
      .selectFrom('reports')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'open')
      .executeTakeFirst(),
  );

/** Bytes of every stored file of every upload (each variant, as `media.variants` lists them). */
const sumMediaBytes = async (db: Queryable) => {
  const query =
    dialectOf(db) === 'postgres'
      ? sql<{
          n: string | null;
        }>`SELECT sum((v->>'bytes')::bigint) AS n FROM media, jsonb_array_elements(media.variants::jsonb) AS v`
      : sql<{
          n: number | null;
        }>`SELECT sum(json_extract(v.value, '$.bytes')) AS n FROM media, json_each(media.variants) AS v`;
  return count((await query.execute(db)).rows[0]);
};

export const overviewRepository = bindQueries({
  countPeople,
  countSignedUpSince,
  countActiveSince,
  perDaySince,
  countOpenReports,
  sumMediaBytes,
});

export type OverviewRepository = ReturnType<typeof overviewRepository>;
