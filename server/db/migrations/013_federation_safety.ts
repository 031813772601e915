/**
 * Issue 32, safety: domains an admin blocked (`severity` 'silence' or 'suspend'), and the local
 * accounts that were deleted, whose actor URIs answer 410 with a `Tombstone` from then on. People of
 * a suspended domain are suspended with it (`domain_suspended`: the block's doing, undone with it).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('federation_domain_blocks')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    // Lower-case host, with its port when it has one (`example.com`, `127.0.0.1:4101`).
    .addColumn('domain', 'varchar(260)', (c) => c.notNull().unique())
    .addColumn('severity', 'varchar(10)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable('users')
    .addColumn('domain_suspended', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // No reference to users: the row outlives the account. The id is the actor URI's last part.
  await db.schema
    .createTable('federation_tombstones')
    .addColumn('user_id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('username_lower', 'varchar(30)', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('federation_tombstones_name_idx')
    .on('federation_tombstones')
    .column('username_lower')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('federation_tombstones').execute();
  await db.schema.dropTable('federation_domain_blocks').execute();
  await db.schema.alterTable('users').dropColumn('domain_suspended').execute();
}
