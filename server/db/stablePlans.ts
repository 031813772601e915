/**
 * Keeping SQLite statements prepared.
 *
 * better-sqlite3 clears a statement's bindings after every run, and SQLite then re-prepares (parses
 * and plans again) any statement whose planner looked at a bound value: a LIMIT, an equality value
 * the planner weighed for an index it did not pick, a value in a LEFT JOIN's ON clause. Re-preparing
 * cost as much as running the statement (docs/benchmarks.md, "Re-prepared statements"). The hot
 * lists therefore keep bound values where the planner does not read them.
 */
import { type Expression, type RawBuilder, SqliteAdapter, sql } from 'kysely';
import type { Queryable } from './schema';

/** A LIMIT written into the SQL text; page sizes are a handful of small integers, each its own statement. */
export function literalLimit(limit: number): RawBuilder<number> {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`not a row count: ${limit}`);
  return sql.lit(limit);
}

/**
 * A value compared with `=` that SQLite's planner does not read: `+?` (unary plus changes neither
 * the value nor the comparison's affinity, and the column's index is still used). PostgreSQL,
 * which has no such issue and no unary plus on text, gets the plain parameter.
 */
export function unplanned<T>(db: Queryable, value: T): Expression<T> {
  return db.getExecutor().adapter instanceof SqliteAdapter ? sql<T>`+${value}` : sql<T>`${value}`;
}
