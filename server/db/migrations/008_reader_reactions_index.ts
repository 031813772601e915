/**
 * Issue 31: the post cache reads all of a reader's reactions in one statement, once per
 * POST_CACHE_MS (`cache/sharedRows.ts`). With the row id and kind in the user's index it reads the
 * index alone, not one table row per reaction (docs/benchmarks/log/2026-11-27.md, "A community's mix").
 */
import type { Kysely } from 'kysely';

const TABLES = [
  { table: 'post_reactions', key: 'post_id' },
  { table: 'comment_reactions', key: 'comment_id' },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { table, key } of TABLES) {
    await db.schema.createIndex(`${table}_user_reactions_idx`).on(table).columns(['user_id', key, 'kind']).execute();
    // The new index starts with user_id: it serves every query the old one did.
    await db.schema.dropIndex(`${table}_user_idx`).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { table } of TABLES) {
    await db.schema.createIndex(`${table}_user_idx`).on(table).columns(['user_id']).execute();
    await db.schema.dropIndex(`${table}_user_reactions_idx`).execute();
  }
}
