/**
 * Issue 68, item 32: a display name apart from the username (null: the username shows), and up to
 * four profile links (`profile_fields`, a JSON array of `{ name, value, verified_at }`, null: none),
 * as Mastodon's `display_name` and `fields`. One column each on `users`: they are read with the rest
 * of a person's facts, never searched.
 */
import type { Kysely } from 'kysely';

const COLUMNS = ['display_name', 'profile_fields'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('users').addColumn(column, 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('users').dropColumn(column).execute();
}
