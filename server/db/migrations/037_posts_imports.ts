/**
 * Issue 76, item 3: a Posts export imported like an Instagram archive, through the same jobs (036).
 * A job says which kind of archive it reads, and keeps the profile settings a Posts export holds
 * (applied when the import starts, if asked); a post found keeps what a Posts export says of it
 * beyond its message (tags, audience, content warning, each photo's alt text and crop).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // 'instagram' | 'posts'.
  await db.schema
    .alterTable('instagram_imports')
    .addColumn('kind', 'varchar(10)', (c) => c.notNull().defaultTo('instagram'))
    .execute();
  // JSON: the profile settings of a Posts export's account.json; null for an Instagram archive.
  await db.schema.alterTable('instagram_imports').addColumn('settings', 'text').execute();
  // JSON: `{ tags, audience, sensitive, spoiler, photos: [{ alt, crop }] }` of a Posts export's post.
  await db.schema.alterTable('instagram_import_posts').addColumn('details', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('instagram_import_posts').dropColumn('details').execute();
  await db.schema.alterTable('instagram_imports').dropColumn('settings').execute();
  await db.schema.alterTable('instagram_imports').dropColumn('kind').execute();
}
