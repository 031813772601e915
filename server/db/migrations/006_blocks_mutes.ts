/**
 * Issue 23, part 1: who blocks and who mutes whom, and when a user was suspended (hidden from
 * everyone else while set). Block and mute lists are keyset-paged by their UUIDv7 ids.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('suspended_at', 'varchar(30)').execute();
  // The few suspended users, for filters that exclude them all at once (the home feed's follow list).
  await db.schema
    .createIndex('users_suspended_idx')
    .on('users')
    .columns(['id'])
    .where(sql.ref('suspended_at'), 'is not', null)
    .execute();

  for (const table of ['blocks', 'mutes'] as const) {
    await db.schema
      .createTable(table)
      .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
      .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('target_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['user_id', 'target_id'])
      .execute();
    // A user's list, newest first; and the other direction (who blocks me), which hides content both ways.
    await db.schema.createIndex(`${table}_user_idx`).on(table).columns(['user_id', 'id']).execute();
    await db.schema.createIndex(`${table}_target_idx`).on(table).columns(['target_id']).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mutes').execute();
  await db.schema.dropTable('blocks').execute();
  await db.schema.dropIndex('users_suspended_idx').execute();
  await db.schema.alterTable('users').dropColumn('suspended_at').execute();
}
