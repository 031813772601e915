/**
 * Issue 70, item 2: each post's audience (`public`, `unlisted`, `followers`, `mentioned`;
 * `posts/audience.ts` holds the rule) and each person's default for new posts. Existing posts
 * were all public. No index: the lists keep every post's id and the audience is asked of each row.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('posts')
    .addColumn('audience', 'text', (c) => c.notNull().defaultTo(sql`'public'`))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('default_audience', 'text', (c) => c.notNull().defaultTo(sql`'public'`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('default_audience').execute();
  await db.schema.alterTable('posts').dropColumn('audience').execute();
}
