/**
 * Named (server-side prepared) statements on PostgreSQL.
 *
 * `pg` sends every unnamed statement's text to PostgreSQL, which parses, analyses and plans it
 * again each time: on D1 that was most of PostgreSQL's 600–1,300 µs of CPU per list request, on
 * the same cores as the app (docs/benchmarks.md, "Named statements on PostgreSQL"). A named
 * statement is parsed once per connection.
 *
 * Planned once, too: the connections use `plan_cache_mode = force_generic_plan`. Left to choose,
 * PostgreSQL kept planning the tag and profile lists for each value (skewed tags and creators make
 * a generic plan's estimate look worse than the custom plans'), which cost as much as parsing.
 * Every named shape is a keyset page driven by an index, whose best plan does not depend on the
 * values (the same reasoning as `stablePlans.ts` on SQLite; the generic plans were checked with
 * auto_explain on D1). PostgreSQL still re-plans a statement after an ANALYZE of its tables, so
 * plans follow the data's growth.
 *
 * Only the statements `prepared()` compiles are named: their texts are a small, fixed set of
 * shapes. Ad-hoc statements (whose texts vary, e.g. with the length of a list) stay unnamed,
 * because every name stays in each connection's memory, in the app and in PostgreSQL, for the
 * connection's life. `MAX_NAMED` bounds that even if shapes multiply (a LIMIT per page size).
 *
 * A transaction-pooling proxy (PgBouncer in transaction mode before 1.21) cannot route named
 * statements: point the app at PostgreSQL or at a session-pooling proxy.
 */
import pg from 'pg';

const MAX_NAMED = 256;
const names = new Map<string, string>();

/** Marks a statement text as one of the app's fixed shapes, to run named. */
export function nameStatement(sql: string): void {
  if (!names.has(sql) && names.size < MAX_NAMED) names.set(sql, `posts_${names.size + 1}`);
}

/**
 * Makes each connection the pool opens run the named shapes as prepared statements; `pg`
 * remembers which names a connection has parsed and sends only Bind/Execute for them afterwards.
 */
export function runNamedStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    // Queued before anything else on the connection. Affects prepared statements only.
    client.query('set plan_cache_mode = force_generic_plan')
      .catch((error: Error) => console.warn(`PostgreSQL kept its default plan_cache_mode: ${error.message}`));
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    // Kysely calls query(text, values); every other form passes through unchanged.
    client.query = ((...args: unknown[]) => {
      const [text, values] = args;
      const name = args.length === 2 && typeof text === 'string' && Array.isArray(values) ? names.get(text) : undefined;
      return name ? query({ name, text, values }) : query(...args);
    }) as typeof client.query;
  });
}
