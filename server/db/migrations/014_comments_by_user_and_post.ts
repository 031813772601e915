/**
 * A viewer with blocks reads each page's comment counts without the blocked people's comments
 * (`blockedCommentCounts`): found from the blocked people's side, one probe per person and post,
 * instead of reading every comment of the page's posts (15 ms for a page of busy posts on D1;
 * docs/benchmarks/log/2026-11-26.md#blocked-comment-counts-2026-11-26). It also serves every look-up by user, so
 * the index on `user_id` alone goes.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('comments_user_post_idx').on('comments').columns(['user_id', 'post_id']).execute();
  await db.schema.dropIndex('comments_user_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('comments_user_idx').on('comments').columns(['user_id']).execute();
  await db.schema.dropIndex('comments_user_post_idx').execute();
}
