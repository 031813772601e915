/**
 * Issue 76, item 1: Instagram archives imported as posts. A job is one uploaded archive (kept as a
 * file under the imports folder until the job ends); its rows are the posts found in it, each with
 * the photos' names in the archive and, once picked, what became of it. The job is claimed with a
 * lease like the account list imports (026), so a restart goes on where it stopped.
 */
import { type Kysely, PostgresAdapter } from 'kysely';
import { writeSignalOn } from './030_write_signals_per_row';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('instagram_imports')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'ready' (found, waiting for the pick) | 'running' | 'finished' | 'cancelled'.
    .addColumn('state', 'varchar(10)', (c) => c.notNull())
    // The archive's file name in the imports folder; null once it is deleted.
    .addColumn('archive', 'varchar(64)')
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    // Epoch ms while a worker holds it; past it, another may take it.
    .addColumn('claimed_until', 'bigint')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(30)')
    .execute();
  await db.schema
    .createIndex('instagram_imports_user_idx')
    .on('instagram_imports')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema.createIndex('instagram_imports_state_idx').on('instagram_imports').columns(['state', 'id']).execute();

  await db.schema
    .createTable('instagram_import_posts')
    .addColumn('import_id', 'varchar(36)', (c) => c.notNull().references('instagram_imports.id').onDelete('cascade'))
    // The post's place in the archive's lists (0 first).
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('taken_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('caption', 'text', (c) => c.notNull())
    // JSON: the photos' entry names in the archive, in the post's order.
    .addColumn('photos', 'text', (c) => c.notNull())
    // Media the post named that are not here (missing from the archive, or videos).
    .addColumn('left_out', 'integer', (c) => c.notNull().defaultTo(0))
    // 'found' | 'pending' | 'done' | 'failed' | 'skipped'; `error` says why one failed.
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('error', 'varchar(200)')
    // The post's id, chosen when found (time-ordered at its original date): made once, whatever restarts.
    .addColumn('post_id', 'varchar(36)', (c) => c.notNull())
    .addPrimaryKeyConstraint('instagram_import_posts_pk', ['import_id', 'position'])
    .execute();
  // Where an imported post came from ('instagram'): shown with its date, which is the original's.
  await db.schema.alterTable('posts').addColumn('imported_from', 'varchar(20)').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    for (const table of ['instagram_imports', 'instagram_import_posts']) await writeSignalOn(db, table);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').dropColumn('imported_from').execute();
  await db.schema.dropTable('instagram_import_posts').execute();
  await db.schema.dropTable('instagram_imports').execute();
}
