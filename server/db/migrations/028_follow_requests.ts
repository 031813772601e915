/**
 * Issue 70, item 1: approve followers. `users.approve_followers` (1: a follow of them waits for
 * their answer) and the waiting follows, one row per pair, apart from `follows`: every count, list
 * and feed that reads `follows` counts approved follows only, unchanged. `activity_uri`: the
 * `Follow` activity of a requester elsewhere (answered `Accept`/`Reject` later), or the one this
 * server sent to a locked person elsewhere (their `Accept` names it).
 */
import { type Kysely, PostgresAdapter } from 'kysely';
import { writeSignalOn } from './019_write_signals';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('approve_followers', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('follow_requests')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('follower_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('followee_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('activity_uri', 'varchar(2000)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('follow_requests_pair_unique', ['follower_id', 'followee_id'])
    .execute();
  // A person's waiting requests, newest first (the list, its count).
  await db.schema
    .createIndex('follow_requests_followee_idx')
    .on('follow_requests')
    .columns(['followee_id', 'id'])
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // `followRequest` is longer than the 12 characters the notification types had (SQLite has no limit).
    await db.schema
      .alterTable('notifications')
      .alterColumn('type', (c) => c.setDataType('varchar(20)'))
      .execute();
    // Its writes tell the other servers, as every table's do (019_write_signals.ts).
    await writeSignalOn('follow_requests').execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('follow_requests').execute();
  await db.schema.alterTable('users').dropColumn('approve_followers').execute();
}
