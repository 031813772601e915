/**
 * Issue 32, safety: people of a silenced domain (`domain_silenced` 1 while the strictest block of
 * their host is a `silence`) are hidden from those who do not follow them: the visibility rule reads
 * the flag on the author's row. People under a silence block made before this migration are marked.
 */
import { type Kysely, sql } from 'kysely';
import { severityIn } from '../../federation/domainName';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('domain_silenced', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const blocks = await sql<{ domain: string; severity: 'silence' | 'suspend' }>`
    select domain, severity from federation_domain_blocks`.execute(db);
  if (blocks.rows.length === 0) return;
  const bySeverity = new Map(blocks.rows.map((b) => [b.domain, b.severity] as const));
  const people = await sql<{ id: string; domain: string }>`
    select id, domain from users where domain is not null`.execute(db);
  const silenced = people.rows.filter((p) => severityIn(bySeverity, p.domain) === 'silence').map((p) => p.id);
  for (let i = 0; i < silenced.length; i += 500)
    await sql`update users set domain_silenced = 1 where id in (${sql.join(silenced.slice(i, i + 500))})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('domain_silenced').execute();
}
