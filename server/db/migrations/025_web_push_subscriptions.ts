/**
 * Issue 74: Web Push subscriptions. One per web session (Settings' "Notifications on this device")
 * or per client API access token (Mastodon ties one to each token): the browser's endpoint and
 * keys, which kinds are pushed (one column each), and from whom (`policy`, Mastodon's).
 */
import { type Kysely, PostgresAdapter } from 'kysely';
import { writeSignalOn } from './019_write_signals';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Exactly one of the two: the web session's, or the client API token's.
    .addColumn('session_id', 'varchar(36)', (c) => c.unique().references('sessions.id').onDelete('cascade'))
    .addColumn('token_id', 'varchar(36)', (c) => c.unique().references('oauth_tokens.id').onDelete('cascade'))
    // The token itself, sealed with the server secret: Mastodon's payload carries it (`push/sealedTokens.ts`).
    .addColumn('access_token_sealed', 'varchar(300)')
    .addColumn('endpoint', 'varchar(2000)', (c) => c.notNull())
    .addColumn('p256dh', 'varchar(200)', (c) => c.notNull())
    .addColumn('auth', 'varchar(100)', (c) => c.notNull())
    .addColumn('alert_follow', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('alert_follow_request', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('alert_like', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('alert_comment', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('alert_mention', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('policy', 'varchar(16)', (c) => c.notNull().defaultTo('all'))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user_idx').on('push_subscriptions').column('user_id').execute();
  // PostgreSQL: its writes tell the other servers, as every table's do (019_write_signals.ts).
  if (db.getExecutor().adapter instanceof PostgresAdapter) await writeSignalOn('push_subscriptions').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('push_subscriptions').execute();
}
