/**
 * Issue 76, items 3 and 4: moving an account as Mastodon does. `also_known_as`: the actor addresses
 * a local person names as their other accounts (JSON array of URIs, null: none), published as the
 * actor's `alsoKnownAs`; `moved_to_id`: the account (here or a kept person from elsewhere) this one
 * moved to, with `moved_at`. Columns on `users`: read with the rest of a person, never searched.
 */
import type { Kysely } from 'kysely';

const COLUMNS = ['also_known_as', 'moved_to_id', 'moved_at'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('users').addColumn(column, 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('users').dropColumn(column).execute();
}
