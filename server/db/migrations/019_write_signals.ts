/**
 * PostgreSQL: every table's writes NOTIFY `posts_writes` with the writing connection's
 * `application_name`, once per transaction and name (PostgreSQL folds the repeats), so that a
 * server learns of commits made by anyone else (a tool, another instance) as SQLite's
 * `data_version` tells it there (`db/postgresWrites.ts`). Migration 030 made the signal per changed
 * row: a table made later takes its `writeSignalOn`.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export const WRITES_CHANNEL = 'posts_writes';

/** The statement that gives `table` the trigger (after the function exists). */
export const writeSignalOn = (table: string) =>
  sql.raw(
    `create or replace trigger posts_write_signal after insert or update or delete or truncate on "${table}" ` +
      'for each statement execute function posts_write_signal()',
  );

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql
    .raw(
      `create or replace function posts_write_signal() returns trigger language plpgsql as $$
       begin
         perform pg_notify('${WRITES_CHANNEL}', current_setting('application_name'));
         return null;
       end $$`,
    )
    .execute(db);
  const { rows } = await sql<{ name: string }>`
    select tablename as name from pg_tables
    where schemaname = current_schema() and tablename not like 'kysely_migration%'`.execute(db);
  for (const { name } of rows) await writeSignalOn(name).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop function if exists posts_write_signal() cascade`.execute(db);
}
