/**
 * Issue 32: a person from elsewhere's avatar and banner remember the address they were fetched
 * from, so a refresh of the actor (an `Update(Person)`, or the daily one) fetches a picture again
 * only when its address changed. Pictures kept before this migration have none: each is fetched
 * once more at their next refresh.
 */
import type { Kysely } from 'kysely';

const COLUMNS = ['avatar_source', 'banner_source'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('users').addColumn(column, 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('users').dropColumn(column).execute();
}
