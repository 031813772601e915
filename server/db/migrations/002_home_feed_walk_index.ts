/**
 * The home feed walks the newest posts keeping those of followed creators. With (id, creator_id)
 * in one index that walk reads the index alone instead of fetching every post row it passes:
 * about twice as fast on the D1 dataset (docs/benchmarks.md).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('posts_id_creator_idx').on('posts').columns(['id', 'creator_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('posts_id_creator_idx').execute();
}
