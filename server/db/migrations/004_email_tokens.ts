/**
 * Email: whether a user's address is verified, the address a pending change waits on, and the
 * single-use links mailed for password resets, verification and email changes (stored as hashes).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'varchar(30)').execute();
  await db.schema.alterTable('users').addColumn('pending_email', 'varchar(254)').execute();

  await db.schema
    .createTable('email_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('email_tokens_user_idx').on('email_tokens').columns(['user_id', 'purpose']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('email_tokens').execute();
  await db.schema.alterTable('users').dropColumn('pending_email').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}
