/**
 * Notifications, the mentions behind them, and the people search's index. Foreign keys cascade,
 * so a deleted post or comment takes its notifications and mentions with it.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('actor_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(12)', (c) => c.notNull())
    .addColumn('post_id', 'varchar(36)', (c) => c.references('posts.id').onDelete('cascade'))
    .addColumn('comment_id', 'varchar(36)', (c) => c.references('comments.id').onDelete('cascade'))
    // What the action was about (the comment, else the post, else ''): with the recipient, type and
    // actor it names one action, so a like toggled off and on again cannot notify twice.
    .addColumn('subject_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('read_at', 'varchar(30)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('notifications_action_unique', ['user_id', 'type', 'actor_id', 'subject_id'])
    .execute();
  // A user's notifications, newest first; the unread ones alone for the bell's count.
  await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'id']).execute();
  await db.schema
    .createIndex('notifications_unread_idx')
    .on('notifications')
    .columns(['user_id', 'id'])
    .where(sql.ref('read_at'), 'is', null)
    .execute();
  // The cascades look notifications up by post, by comment and by actor.
  await db.schema.createIndex('notifications_post_idx').on('notifications').columns(['post_id']).execute();
  await db.schema.createIndex('notifications_actor_idx').on('notifications').columns(['actor_id']).execute();
  await db.schema.createIndex('notifications_comment_idx').on('notifications').columns(['comment_id']).execute();

  // Who a post or a comment mentions (users that existed when it was written).
  await db.schema
    .createTable('post_mentions')
    .addColumn('post_id', 'varchar(36)', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('post_mentions_pk', ['post_id', 'user_id'])
    .execute();
  await db.schema.createIndex('post_mentions_user_idx').on('post_mentions').columns(['user_id']).execute();
  await db.schema
    .createTable('comment_mentions')
    .addColumn('comment_id', 'varchar(36)', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('comment_mentions_pk', ['comment_id', 'user_id'])
    .execute();
  await db.schema.createIndex('comment_mentions_user_idx').on('comment_mentions').columns(['user_id']).execute();

  // The people search is a range on username_lower. SQLite compares bytes already (the unique
  // index serves it); PostgreSQL's default collation may not sort '.' and '_' by code, so its
  // ranges use "C", which needs an index of its own.
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await sql`CREATE INDEX users_username_prefix_idx ON users (username_lower COLLATE "C")`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS users_username_prefix_idx`.execute(db);
  for (const table of ['comment_mentions', 'post_mentions', 'notifications'])
    await db.schema.dropTable(table).execute();
}
