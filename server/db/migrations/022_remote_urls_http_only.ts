/**
 * Issue 68, item 35: a person's or a post's `url` from elsewhere is shown and linked only when it is
 * http(s) (`federation/remoteText.ts`, `webUrlOf`). Those kept before with another scheme
 * (`javascript:`, `data:`) fall back as new ones do: a person's to their actor's address, a post's
 * to its note's; nothing is left to open.
 */
import { type Kysely, sql } from 'kysely';

const notWeb = (column: string) =>
  sql.raw(`${column} is not null and lower(${column}) not like 'http://%' and lower(${column}) not like 'https://%'`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update users set url = actor_uri where ${notWeb('url')}`.execute(db);
  await sql`update posts set url = uri where ${notWeb('url')}`.execute(db);
  // An actor's or a note's own address that is not http(s) either: no link at all.
  await sql`update users set url = null where ${notWeb('url')}`.execute(db);
  await sql`update posts set url = null where ${notWeb('url')}`.execute(db);
}

export async function down(): Promise<void> {
  // What was dropped was never safe to show: nothing to put back.
}
