/**
 * PostgreSQL: the write signal of migration 019 fired once per statement, also for a statement that
 * changed no row, so every queue worker's idle poll (an UPDATE that claims nothing, each second)
 * told the other instances off the bus to forget every cache. Now a row trigger signals inserts,
 * updates and deletes that changed a row (PostgreSQL folds a transaction's repeats), and a statement
 * trigger `TRUNCATE`, which has no rows. A table made by a later migration needs `writeSignalOn`
 * from here: tests/server/postgresWrites.test.ts fails for a table without it.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { writeSignalOn as statementSignalOn } from './019_write_signals';

/** Gives `table` both triggers (the function exists since migration 019). */
export async function writeSignalOn(db: Kysely<unknown>, table: string): Promise<void> {
  await sql.raw(`drop trigger if exists posts_write_signal on "${table}"`).execute(db);
  await sql
    .raw(
      `create trigger posts_write_signal after insert or update or delete on "${table}" ` +
        'for each row execute function posts_write_signal()',
    )
    .execute(db);
  await sql
    .raw(
      `create trigger posts_write_signal_truncate after truncate on "${table}" ` +
        'for each statement execute function posts_write_signal()',
    )
    .execute(db);
}

const tables = async (db: Kysely<unknown>) =>
  (
    await sql<{ name: string }>`
      select tablename as name from pg_tables
      where schemaname = current_schema() and tablename not like 'kysely_migration%'`.execute(db)
  ).rows.map((row) => row.name);

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const name of await tables(db)) await writeSignalOn(db, name);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const name of await tables(db)) {
    await sql.raw(`drop trigger if exists posts_write_signal_truncate on "${name}"`).execute(db);
    await sql.raw(`drop trigger if exists posts_write_signal on "${name}"`).execute(db);
    await statementSignalOn(name).execute(db);
  }
}
