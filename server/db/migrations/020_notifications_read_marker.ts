/**
 * Issue 31: what a user has read is one marker on their row, `users.notifications_read_to` (the
 * newest notification id read; null: none), as Mastodon's `last_read_id` is, instead of the partial
 * index `notifications_unread_idx` every new notification was written into. Marking read only ever
 * moved up to an id (all or up to and including `upTo`), so the rows read were already those up to
 * the newest one read: that one becomes each user's marker. `read_at` stays, set when marked, for
 * the account's export (docs/benchmarks/log/2026-12-03.md, "Unread as a marker").
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('notifications_read_to', 'varchar(36)').execute();
  await sql`
    update users set notifications_read_to = (
      select max(n.id) from notifications n where n.user_id = users.id and n.read_at is not null
    )
    where exists (select 1 from notifications n where n.user_id = users.id and n.read_at is not null)`.execute(db);
  await db.schema.dropIndex('notifications_unread_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('notifications_unread_idx')
    .on('notifications')
    .columns(['user_id', 'id'])
    .where(sql.ref('read_at'), 'is', null)
    .execute();
  await db.schema.alterTable('users').dropColumn('notifications_read_to').execute();
}
