/**
 * Issue 75: the language a person chose for the app (`en`, `es`, `de`, `fr`, `ja`, `ar`:
 * lib/i18n/languages.ts); null until they choose, when the cookie or the browser's languages decide.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', 'varchar(8)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('language').execute();
}
