/**
 * Issue 73, item 2: followed hashtags. One row per person and tag they follow, private to them;
 * `tag` is the tag's key (`tagKey`: lower case, NFC), `name` the spelling they followed it as, `id`
 * a UUIDv7 minted at the follow (the client API's keyset paging). The rows go with the account (ON
 * DELETE CASCADE). The person's list reads them newest first (`followed_tags_user_idx`); the
 * primary key answers "do they follow it" and the count.
 */
import { type Kysely, PostgresAdapter } from 'kysely';
import { writeSignalOn } from './030_write_signals_per_row';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('followed_tags')
    .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tag', 'varchar(200)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('followed_tags_pk', ['user_id', 'tag'])
    .execute();
  await db.schema.createIndex('followed_tags_user_idx').on('followed_tags').columns(['user_id', 'id']).execute();
  // PostgreSQL: its writes tell the other servers, as every table's do (030_write_signals_per_row.ts).
  if (db.getExecutor().adapter instanceof PostgresAdapter) await writeSignalOn(db, 'followed_tags');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('followed_tags').execute();
}
