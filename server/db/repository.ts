/** What every repository is made of: queries bound to one database handle, and transactions over them. */
import type { Kysely } from 'kysely';
import type { NowConnection } from './database';
import type { Database, Queryable } from './schema';
import { type Steps, stepsRunner } from './steps';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any argument list; `Bound` keeps each query's own types.
type Query = (db: Queryable, ...args: any[]) => unknown;
export type Bound<Q extends Record<string, Query>> = {
  [K in keyof Q]: Q[K] extends (db: Queryable, ...args: infer A) => infer R ? (...args: A) => R : never;
};

/** Turns queries that take the database first into a repository factory: `repo(db).query(...args)`. */
export function bindQueries<Q extends Record<string, Query>>(queries: Q): (db: Queryable) => Bound<Q> {
  return (db) => {
    const bound: Record<string, unknown> = {};
    for (const [name, query] of Object.entries(queries)) bound[name] = (...args: unknown[]) => query(db, ...args);
    return bound as Bound<Q>;
  };
}

/**
 * Repositories bound to the database, and `transaction` to run some work on the same ones inside one;
 * `steps` runs a write's steps in one transaction (synchronously on SQLite, with the turn's other
 * writes: `steps.ts`).
 */
export type Transactional<R> = R & {
  transaction<T>(work: (trx: R) => Promise<T>): Promise<T>;
  steps<T>(steps: () => Steps<T>): Promise<T>;
};

export function transactional<R extends object>(
  db: Kysely<Database>,
  bind: (db: Queryable) => R,
  now: NowConnection | null = null,
): Transactional<R> {
  return {
    ...bind(db),
    transaction: (work) => db.transaction().execute((trx) => work(bind(trx))),
    steps: stepsRunner(db, now),
  };
}
