/**
 * Issue 76, item 2: follows, blocks and mutes imported from Mastodon's CSV lists. A job and its rows
 * live in the database, so an import interrupted by a restart goes on where it stopped: rows for
 * people elsewhere wait (`pending`) until a worker of any instance has looked them up.
 */
import { type Kysely, PostgresAdapter } from 'kysely';
import { writeSignalOn } from './019_write_signals';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_list_imports')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'follows' | 'blocks' | 'mutes'; mode 'merge' | 'overwrite'; state 'running' | 'finished'.
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('mode', 'varchar(10)', (c) => c.notNull())
    .addColumn('state', 'varchar(10)', (c) => c.notNull())
    // Overwrite: set once the entries missing from the file were removed (done once per job).
    .addColumn('pruned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull())
    // Epoch ms while a worker (or the request that made the job) holds it; past it, another may take it.
    .addColumn('claimed_until', 'bigint')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(30)')
    .execute();
  await db.schema
    .createIndex('account_list_imports_user_idx')
    .on('account_list_imports')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('account_list_imports_state_idx')
    .on('account_list_imports')
    .columns(['state', 'id'])
    .execute();

  await db.schema
    .createTable('account_list_import_rows')
    .addColumn('import_id', 'varchar(36)', (c) => c.notNull().references('account_list_imports.id').onDelete('cascade'))
    // The row's line in the file (1 is the first line after the header, if any).
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('address', 'varchar(320)', (c) => c.notNull())
    // 'pending' | 'done' | 'failed'; `error` says why a row failed.
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('error', 'varchar(200)')
    .addPrimaryKeyConstraint('account_list_import_rows_pk', ['import_id', 'line'])
    .execute();
  await db.schema
    .createIndex('account_list_import_rows_status_idx')
    .on('account_list_import_rows')
    .columns(['import_id', 'status', 'line'])
    .execute();
  // PostgreSQL: its writes tell the other servers, as every table's do (019_write_signals.ts).
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    for (const table of ['account_list_imports', 'account_list_import_rows']) await writeSignalOn(table).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_list_import_rows').execute();
  await db.schema.dropTable('account_list_imports').execute();
}
