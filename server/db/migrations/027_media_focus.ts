/**
 * Issue 68, item 2: the focal point a Mastodon app sends with an upload (`focus`), kept in the crop
 * form posts use ('' the centre, or 'x,y' from 0 to 1) until a post takes the upload.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('media')
    .addColumn('crop', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('media').dropColumn('crop').execute();
}
