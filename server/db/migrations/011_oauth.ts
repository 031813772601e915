/**
 * Issue 33: OAuth 2 for the Mastodon client API. Apps register themselves; a person's consent
 * gives a single-use code; the code (or the app's own credentials) buys an access token. Secrets,
 * codes and tokens are stored as SHA-256 hashes only. A person's token owns a session row, so
 * everything that ends sessions (password change, suspension, deletion) ends the token too.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_apps')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('client_secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('website', 'varchar(2000)')
    // Newline-separated, as Mastodon stores them.
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('scopes', 'varchar(500)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('app_id', 'varchar(36)', (c) => c.notNull().references('oauth_apps.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'varchar(2000)', (c) => c.notNull())
    .addColumn('scopes', 'varchar(500)', (c) => c.notNull())
    .addColumn('code_challenge', 'varchar(128)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(30)')
    .execute();

  await db.schema
    .createTable('oauth_tokens')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('app_id', 'varchar(36)', (c) => c.notNull().references('oauth_apps.id').onDelete('cascade'))
    // Null for an app's own token (client_credentials): it acts for nobody.
    .addColumn('user_id', 'varchar(36)', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'varchar(36)', (c) => c.references('sessions.id').onDelete('cascade'))
    .addColumn('scopes', 'varchar(500)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('oauth_tokens_user_idx').on('oauth_tokens').columns(['user_id', 'id']).execute();

  // Alt text sent with an upload (`description`), before any post uses the image.
  await db.schema.alterTable('media').addColumn('description', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('media').dropColumn('description').execute();
  await db.schema.dropTable('oauth_tokens').execute();
  await db.schema.dropTable('oauth_codes').execute();
  await db.schema.dropTable('oauth_apps').execute();
}
