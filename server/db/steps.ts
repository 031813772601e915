/**
 * A write's statements as steps: a generator that yields `prepared` statements with their values
 * and is sent back their rows. One description runs two ways: on SQLite synchronously, through
 * better-sqlite3 in one transaction (no promise per statement, no Kysely path: the like toggle's
 * share of its CPU, docs/benchmarks.md "Fewer pages and statements per write"); on PostgreSQL, or
 * while Kysely holds SQLite's connection in a transaction of its own, through Kysely's transaction.
 */
import type { Kysely } from 'kysely';
import type { NowConnection } from './database';
import type { PreparedQuery } from './prepared';
import type { Database, Queryable } from './schema';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any statement; `ask` keeps each one's types
type AnyQuery = PreparedQuery<any, unknown>;

export interface Step {
  query: AnyQuery;
  values: Record<string, unknown>;
}

export type Steps<T> = Generator<Step, T, unknown>;

/** `const rows = yield* ask(query, values)`: one statement's rows, typed. */
export function* ask<V extends Record<string, unknown>, R>(query: PreparedQuery<V, R>, values: V): Steps<R[]> {
  return (yield { query: query as AnyQuery, values }) as R[];
}

/** Runs the steps in one transaction: synchronously on SQLite when its connection is free. */
export async function runSteps<T>(db: Kysely<Database>, now: NowConnection | null, steps: () => Steps<T>): Promise<T> {
  if (now && !now.inTransaction())
    return now.transaction(() => drive(steps(), (step) => step.query.now(now, step.values)));
  return db.transaction().execute((trx) => stepsOn(trx, steps()));
}

/** The steps on a database handle or a transaction already open, through Kysely (no transaction of their own). */
export async function stepsOn<T>(db: Queryable, running: Steps<T>): Promise<T> {
  let next = running.next();
  while (!next.done) next = running.next(await next.value.query(db, next.value.values));
  return next.value;
}

function drive<T>(running: Steps<T>, run: (step: Step) => unknown): T {
  let next = running.next();
  while (!next.done) next = running.next(run(next.value));
  return next.value;
}
