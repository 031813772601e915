/**
 * Issue 32, people and posts from elsewhere: a person on another server is a `users` row with a
 * `domain` (host[:port]) and their actor's addresses; their posts and comments are rows with the
 * object's `uri` (and a post's `url`, the original's page). Every table and service that serves
 * local people (follows, reactions, comments, notifications, feeds) serves them unchanged.
 * A remote person has no password and an `email` that is no address (`remote:<id>`): nobody signs
 * in as them.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // `name@host:port` is longer than a local name: PostgreSQL enforces the length (SQLite does not).
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`ALTER TABLE users ALTER COLUMN username TYPE varchar(300)`.execute(db);
    await sql`ALTER TABLE users ALTER COLUMN username_lower TYPE varchar(300)`.execute(db);
  }
  await db.schema.alterTable('users').addColumn('domain', 'varchar(255)').execute();
  await db.schema.alterTable('users').addColumn('actor_uri', 'text').execute();
  await db.schema.alterTable('users').addColumn('inbox_uri', 'text').execute();
  await db.schema.alterTable('users').addColumn('shared_inbox_uri', 'text').execute();
  await db.schema.alterTable('users').addColumn('url', 'text').execute();
  // When the actor was last fetched: a look-up refreshes what is older than a day.
  await db.schema.alterTable('users').addColumn('fetched_at', 'varchar(30)').execute();
  // Partial: only the rows from elsewhere are in these indexes, so a filter on the local ones
  // (`uri IS NULL`, "Everyone") is never planned through them (a scan and a sort of every post).
  await db.schema
    .createIndex('users_actor_uri_unique')
    .on('users')
    .column('actor_uri')
    .unique()
    .where(sql.ref('actor_uri'), 'is not', null)
    .execute();

  await db.schema.alterTable('posts').addColumn('uri', 'text').execute();
  await db.schema.alterTable('posts').addColumn('url', 'text').execute();
  await db.schema
    .createIndex('posts_uri_unique')
    .on('posts')
    .column('uri')
    .unique()
    .where(sql.ref('uri'), 'is not', null)
    .execute();

  await db.schema.alterTable('comments').addColumn('uri', 'text').execute();
  await db.schema
    .createIndex('comments_uri_unique')
    .on('comments')
    .column('uri')
    .unique()
    .where(sql.ref('uri'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('comments_uri_unique').execute();
  await db.schema.alterTable('comments').dropColumn('uri').execute();
  await db.schema.dropIndex('posts_uri_unique').execute();
  await db.schema.alterTable('posts').dropColumn('url').execute();
  await db.schema.alterTable('posts').dropColumn('uri').execute();
  await db.schema.dropIndex('users_actor_uri_unique').execute();
  for (const column of ['fetched_at', 'url', 'shared_inbox_uri', 'inbox_uri', 'actor_uri', 'domain'])
    await db.schema.alterTable('users').dropColumn(column).execute();
}
