/**
 * Issue 73, item 1: saved posts. One row per person and post they saved, private to them: no
 * count anywhere. They go with the post and with the account (ON DELETE CASCADE). The person's
 * list reads them newest saved first (`saved_posts_user_idx`); a post's delete finds its saves by
 * `saved_posts_post_idx`.
 */
import { type Kysely, PostgresAdapter } from 'kysely';
import { writeSignalOn } from './030_write_signals_per_row';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('saved_posts')
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('post_id', 'varchar(36)', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('saved_posts_pk', ['user_id', 'post_id'])
    .execute();
  await db.schema
    .createIndex('saved_posts_user_idx')
    .on('saved_posts')
    .columns(['user_id', 'created_at', 'post_id'])
    .execute();
  await db.schema.createIndex('saved_posts_post_idx').on('saved_posts').column('post_id').execute();
  // PostgreSQL: its writes tell the other servers, as every table's do (030_write_signals_per_row.ts).
  if (db.getExecutor().adapter instanceof PostgresAdapter) await writeSignalOn(db, 'saved_posts');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('saved_posts').execute();
}
