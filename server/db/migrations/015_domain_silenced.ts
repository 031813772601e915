/**
 * Issue 32, safety: people of a silenced domain (`domain_silenced` 1 while the strictest block of
 * their host is a `silence`) are hidden from those who do not follow them: the visibility rule reads
 * the flag on the author's row. People under a silence block made before this migration are marked.
 */
import { isIP } from 'node:net';
import { type Kysely, sql } from 'kysely';

type Severity = 'silence' | 'suspend';

// The matching rule of server/federation/domainName.ts as it was when this migration was written,
// copied so the migration stays what it was when the app's rule changes (migrations import nothing
// from the app).

function canonicalHost(host: string): string {
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return host.toLowerCase();
  }
  let name = url.hostname.replace(/\.+$/, '');
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(name);
  if (mapped) {
    const [high, low] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
    name = [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return url.port ? `${name}:${url.port}` : name;
}

/** A host, then without its port, then its parent domains. */
function domainCandidates(host: string): string[] {
  const lower = canonicalHost(host);
  const colon = lower.lastIndexOf(':');
  const bare = colon > lower.lastIndexOf(']') && colon !== -1 ? lower.slice(0, colon) : lower;
  const candidates = [lower];
  if (bare !== lower) candidates.push(bare);
  if (!isIP(bare.replace(/^\[|\]$/g, ''))) {
    const labels = bare.split('.');
    for (let i = 1; i < labels.length - 1; i++) candidates.push(labels.slice(i).join('.'));
  }
  return candidates;
}

/** The strictest block among the host's candidates. */
function severityIn(blocks: ReadonlyMap<string, Severity>, host: string): Severity | null {
  let found: Severity | null = null;
  for (const candidate of domainCandidates(host)) {
    const severity = blocks.get(candidate);
    if (severity === 'suspend') return severity;
    found ??= severity ?? null;
  }
  return found;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('domain_silenced', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const blocks = await sql<{ domain: string; severity: Severity }>`
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
