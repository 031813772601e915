/**
 * Issue 31: a notification's indexes by comment and by post hold only the rows that name one. Every
 * look-up by them is `comment_id = ?` / `post_id = ?` (the cascades, `unreadRecipientsAbout`), which
 * a partial index `where … is not null` serves on both databases, and a like's or a follow's
 * notification no longer writes a b-tree page for a null key at each commit
 * (docs/benchmarks/log/2026-11-27.md, "Fewer pages and statements per write").
 */
import { type Kysely, sql } from 'kysely';

const INDEXES = [
  { name: 'notifications_comment_idx', column: 'comment_id' },
  { name: 'notifications_post_idx', column: 'post_id' },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { name, column } of INDEXES) {
    await db.schema.dropIndex(name).execute();
    await db.schema
      .createIndex(name)
      .on('notifications')
      .column(column)
      .where(sql.ref(column), 'is not', null)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { name, column } of INDEXES) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('notifications').column(column).execute();
  }
}
