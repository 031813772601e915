/**
 * Keeping SQLite statements prepared: SQLite re-prepares any statement whose planner read a bound
 * value (a LIMIT, an equality it weighed, a LEFT JOIN's ON value), so the hot lists keep their
 * values where the planner does not read them (docs/benchmarks/log/2026-11-23.md#re-prepared-statements-found-2026-11-23).
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

/**
 * `values` for an `in (…)` list, padded to the next power of two by repeating the last one: each
 * list length is a statement of its own (prepared on SQLite, named on PostgreSQL), and lists of any
 * length from 1 to 200 would keep ~400 of them, with their memory, where eight sizes do.
 */
export function stableInList<T>(values: readonly T[]): T[] {
  let size = 1;
  while (size < values.length) size *= 2;
  const out = values.slice();
  while (out.length < size) out.push(values[values.length - 1]);
  return out;
}
