/**
 * The home feed walks the newest posts keeping those of followed creators: with (id, creator_id)
 * in one index it reads the index alone, not every post row it passes (docs/benchmarks/notes.md#caches-and-statements).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('posts_id_creator_idx').on('posts').columns(['id', 'creator_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('posts_id_creator_idx').execute();
}
