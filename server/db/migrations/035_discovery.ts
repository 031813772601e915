/**
 * Issue 73, items 3–5: Explore. `users.discoverable` (1, the default: suggested to others and their
 * public posts in Explore; Mastodon's `discoverable`), and what an admin hid from the trends: one
 * row per post id or tag key. The trends read their window by the posts' primary key (ids are
 * UUIDv7, time-ordered) and the reactions and comments by their post's index: no index is added.
 */
import { type Kysely, PostgresAdapter } from 'kysely';
import { writeSignalOn } from './030_write_signals_per_row';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('discoverable', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  // People elsewhere are discoverable when their actor says so (Mastodon's reading): the next fetch
  // of their actor sets it (`federation/remotePeople.ts`).
  await db
    .updateTable('users' as never)
    .set({ discoverable: 0 } as never)
    .where('domain' as never, 'is not', null)
    .execute();
  await db.schema
    .createTable('explore_hidden')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(4)', (c) => c.notNull())
    // A post's id or a tag's key (`tagKey`).
    .addColumn('subject', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('explore_hidden_subject_unique', ['kind', 'subject'])
    .execute();
  // PostgreSQL: its writes tell the other servers, as every table's do (030_write_signals_per_row.ts).
  if (db.getExecutor().adapter instanceof PostgresAdapter) await writeSignalOn(db, 'explore_hidden');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('explore_hidden').execute();
  await db.schema.alterTable('users').dropColumn('discoverable').execute();
}
