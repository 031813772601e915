/**
 * Queries built and compiled once, then run with new values: Kysely would recompile each call,
 * which costs as much as running a list (docs/benchmarks/notes.md#caches-and-statements). The builder
 * stays the one description of the query, and its SQL text stays stable for the statement cache.
 */
import { type Compilable, type CompiledQuery, createQueryId } from 'kysely';
import { nameStatement } from './namedStatements';
import type { NowConnection } from './database';
import type { Queryable } from './schema';

type Values = Record<string, unknown>;

/** Stands where a value goes while the query is built; never reaches the database. */
class Placeholder {
  constructor(
    readonly name: string,
    readonly index?: number,
  ) {}
}

interface Compiled {
  query: CompiledQuery;
  /** For each parameter: where its value comes from, or the constant the builder put there. */
  sources: ({ name: string; index?: number } | { constant: unknown })[];
}

/**
 * `build` receives placeholders (typed as the values they stand for) and must use them only as
 * values: comparisons, `in` lists. Three things may change a query's shape, and key its compiled
 * forms: a null or undefined value is passed to `build` as it is (an absent cursor adds no
 * condition), an array value becomes an array of placeholders of its length, and a number is
 * passed as it is, for a LIMIT written into the SQL (`literalLimit` in stablePlans.ts says why).
 */
export function prepared<V extends Values, R>(build: (db: Queryable, values: V) => Compilable<R>) {
  // Compiled SQL depends on the dialect only; transactions share their database's adapter.
  const byAdapter = new WeakMap<object, Map<string, Compiled>>();

  function compile(db: Queryable, values: V, shape: string): Compiled {
    const placeholders = Object.fromEntries(
      Object.entries(values).map(([name, value]) => [
        name,
        value == null || typeof value === 'number'
          ? value
          : Array.isArray(value)
            ? value.map((_, index) => new Placeholder(name, index))
            : new Placeholder(name),
      ]),
    ) as V;
    const query = build(db, placeholders).compile();
    // A placeholder used as anything but a value (concatenated, added to) would be frozen into the
    // SQL text or into a constant parameter; refuse the query rather than run it wrong forever.
    const leaked = (value: unknown) =>
      (typeof value === 'string' && value.includes('[object Object]')) || Number.isNaN(value);
    if (leaked(query.sql) || query.parameters.some(leaked)) {
      throw new Error(`prepared(): a value was used as more than a value in ${query.sql}`);
    }
    const sources = query.parameters.map((parameter) =>
      parameter instanceof Placeholder ? { name: parameter.name, index: parameter.index } : { constant: parameter },
    );
    nameStatement(query.sql);
    const compiled = { query, sources };
    const adapter = db.getExecutor().adapter;
    let shapes = byAdapter.get(adapter);
    if (!shapes) byAdapter.set(adapter, (shapes = new Map()));
    shapes.set(shape, compiled);
    return compiled;
  }

  function bind(db: Queryable, values: V): { query: CompiledQuery; parameters: unknown[] } {
    let shape = '';
    for (const value of Object.values(values)) {
      shape +=
        value == null
          ? 'n,'
          : typeof value === 'number'
            ? `#${value},`
            : Array.isArray(value)
              ? `${value.length},`
              : 'v,';
    }
    const compiled = byAdapter.get(db.getExecutor().adapter)?.get(shape) ?? compile(db, values, shape);
    const parameters = compiled.sources.map((source) => {
      if ('constant' in source) return source.constant;
      const value = values[source.name];
      return source.index === undefined ? value : (value as unknown[])[source.index];
    });
    return { query: compiled.query, parameters };
  }

  async function run(db: Queryable, values: V): Promise<R[]> {
    const { query, parameters } = bind(db, values);
    const result = await db.executeQuery<R>({ ...query, parameters, queryId: createQueryId() });
    return result.rows;
  }
  /** SQLite: the same statement run synchronously on the connection (`steps.ts`). */
  run.now = (connection: NowConnection, values: V): R[] => {
    const { query, parameters } = bind(connection.db, values);
    return connection.query(query.sql, parameters) as R[];
  };
  return run;
}

export type PreparedQuery<V extends Values, R> = ReturnType<typeof prepared<V, R>>;
