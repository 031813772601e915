/**
 * Named (server-side prepared) statements on PostgreSQL: parsed once per connection, and planned
 * once (`plan_cache_mode = force_generic_plan`), since every named shape is a keyset page whose
 * best plan does not depend on the values (docs/benchmarks/log/2026-11-23.md#named-statements-on-postgresql-found-2026-11-23).
 *
 * Only `prepared()`'s fixed shapes are named: each name stays in every connection for its life,
 * so ad-hoc texts stay unnamed and `MAX_NAMED` bounds the rest. A transaction-pooling proxy
 * (PgBouncer in transaction mode before 1.21) cannot route named statements.
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
    client
      .query('set plan_cache_mode = force_generic_plan')
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
