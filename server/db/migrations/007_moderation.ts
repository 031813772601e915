/**
 * Issue 23, part 2: reports and the admin log, and posts' alt text and content warnings.
 * `users.suspended_at` comes with 006.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('posts')
    .addColumn('alt', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // 0 or 1 on both databases, like the other flags the mappers turn into booleans.
  await db.schema
    .alterTable('posts')
    .addColumn('sensitive', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('posts')
    .addColumn('spoiler', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('reports')
    // UUIDv7: the queue's keyset cursor.
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('reporter_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_type', 'varchar(10)', (c) => c.notNull())
    .addColumn('target_id', 'varchar(36)', (c) => c.notNull())
    // The reported content's author (the user itself for a user report): who `suspendUser` suspends.
    .addColumn('target_user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'varchar(10)', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('resolved_at', 'varchar(30)')
    .addColumn('resolved_by', 'varchar(30)')
    .addColumn('resolution', 'varchar(20)')
    .execute();
  // One open report per reporter and target: the database decides between two racing reports.
  await sql`CREATE UNIQUE INDEX reports_open_once ON reports (reporter_id, target_type, target_id) WHERE status = 'open'`.execute(
    db,
  );
  await db.schema.createIndex('reports_status_idx').on('reports').columns(['status', 'id']).execute();
  await db.schema.createIndex('reports_target_idx').on('reports').columns(['target_type', 'target_id']).execute();

  await db.schema
    .createTable('admin_log')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    // Names, not ids: the log outlives deleted accounts.
    .addColumn('admin_username', 'varchar(30)', (c) => c.notNull())
    .addColumn('action', 'varchar(20)', (c) => c.notNull())
    .addColumn('target_type', 'varchar(10)', (c) => c.notNull())
    .addColumn('target_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('target_label', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('admin_log').execute();
  await db.schema.dropTable('reports').execute();
  await db.schema.alterTable('posts').dropColumn('spoiler').execute();
  await db.schema.alterTable('posts').dropColumn('sensitive').execute();
  await db.schema.alterTable('posts').dropColumn('alt').execute();
}
