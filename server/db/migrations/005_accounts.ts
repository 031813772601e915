/**
 * Issue 22, part 2: when each session was last used, two-factor sign-in (the TOTP secret, sealed,
 * and single-use recovery codes, hashed) and the usernames of deleted accounts, held for 30 days.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('last_used_at', 'varchar(30)').execute();
  await sql`UPDATE sessions SET last_used_at = created_at`.execute(db);

  await db.schema
    .createTable('two_factor')
    .addColumn('user_id', 'varchar(36)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    // Null while set up but not yet confirmed with a code.
    .addColumn('enabled_at', 'varchar(30)')
    // The newest 30-second step a code was accepted for: no code of it or before counts again.
    .addColumn('last_step', 'integer')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(30)')
    .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('retired_usernames')
    .addColumn('username_lower', 'varchar(30)', (c) => c.primaryKey())
    .addColumn('retired_until', 'varchar(30)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('retired_usernames').execute();
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.dropTable('two_factor').execute();
  await db.schema.alterTable('sessions').dropColumn('last_used_at').execute();
}
