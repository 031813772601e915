/**
 * Issue 68, item 2: where feeds crop a post's photo (lib/photoCrop.ts): '' (the centre, every post
 * before), 'fit' (the whole photo, letterboxed) or 'x,y', a focal point from 0 to 1.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('posts')
    .addColumn('crop', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').dropColumn('crop').execute();
}
