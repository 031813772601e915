/**
 * PostgreSQL (issue 72): a transaction that NOTIFYs takes one lock for the whole server at commit,
 * so the write signal of migrations 019/030 serialised every write (a like alone: 144/s with it,
 * 309/s without, docs/benchmarks.md). Instances on the Redis bus (connections named `posts:bus:…`,
 * db/postgresWrites.ts) ignore each other's signal, their numbered events tell of their writes: so
 * they send none. The rule that follows: a database's instances are all on the bus, or none (an
 * instance without the bus warns at start-up when it sees one on it).
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const CHANNEL = 'posts_writes';

/** The trigger function with `body` between begin and end (the triggers of 030 keep calling it). */
const signalFunction = (body: string) =>
  sql.raw(`create or replace function posts_write_signal() returns trigger language plpgsql as $$
       begin
         ${body}
         return null;
       end $$`);

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await signalFunction(
    `if not starts_with(current_setting('application_name'), 'posts:bus:') then
           perform pg_notify('${CHANNEL}', current_setting('application_name'));
         end if;`,
  ).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // As migration 019 made it: every writer signals.
  await signalFunction(`perform pg_notify('${CHANNEL}', current_setting('application_name'));`).execute(db);
}
