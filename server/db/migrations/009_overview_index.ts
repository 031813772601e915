/**
 * Issue 34: the admin overview counts the people active in the last 30 days as the users of the
 * sessions used since (`overview/repository.ts`): this index answers it as one range, index only.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('sessions_last_used_idx').on('sessions').columns(['last_used_at', 'user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sessions_last_used_idx').execute();
}
