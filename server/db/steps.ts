/**
 * A write's statements as steps: a generator that yields `prepared` statements with their values
 * and is sent back their rows. One description runs two ways: on SQLite synchronously, through
 * better-sqlite3 in one transaction (no promise per statement, no Kysely path: the like toggle's
 * share of its CPU, docs/benchmarks/log/2026-11-27.md "Fewer pages and statements per write"); on PostgreSQL, or
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

export type StepsRunner = <T>(steps: () => Steps<T>) => Promise<T>;

interface Waiting {
  steps: () => Steps<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Runs each write's steps in a transaction. On SQLite the writes asked for in one turn of the
 * event loop share one transaction, each in a savepoint of its own (a group commit): the pages
 * they all touch (an index's last leaf, a post's counters) go to the WAL once, not once each
 * (docs/benchmarks/log/2026-11-27.md "Writes in one turn commit together"). Every write is answered after the
 * COMMIT, so none is answered before it is durable; a write that throws takes back only its own.
 */
export function stepsRunner(db: Kysely<Database>, now: NowConnection | null): StepsRunner {
  const throughKysely = <T>(steps: () => Steps<T>) => db.transaction().execute((trx) => stepsOn(trx, steps()));
  if (!now) return throughKysely;
  let waiting: Waiting[] = [];

  const runTogether = () => {
    // The checkpoint worker is letting the log start over: these writes, and those asked meanwhile,
    // wait (`backgroundCheckpoints.ts`, QUIET_AFTER_PAGES).
    const hold = now.hold();
    if (hold) {
      void hold.then(runTogether);
      return;
    }
    const batch = waiting;
    waiting = [];
    // Kysely holds the one connection between two statements of its transaction: wait for it.
    if (now.inTransaction()) {
      for (const one of batch) throughKysely(one.steps).then(one.resolve, one.reject);
      return;
    }
    const run = (step: Step) => step.query.now(now, step.values);
    const inSavepoint = (one: Waiting): Outcome => {
      now.query('savepoint write', []);
      try {
        const value = drive(one.steps(), run);
        now.query('release write', []);
        return { ok: true, value };
      } catch (error) {
        // An error SQLite ended the whole transaction for (I/O, a full disk) fails every write in it.
        if (!now.inTransaction()) throw error;
        now.query('rollback to write', []);
        now.query('release write', []);
        return { ok: false, error };
      }
    };
    let outcomes: Outcome[];
    try {
      // A write alone needs no savepoint: its error rolls the transaction back.
      outcomes = now.transaction(() =>
        batch.length === 1 ? [{ ok: true, value: drive(batch[0].steps(), run) }] : batch.map(inSavepoint),
      );
    } catch (error) {
      for (const one of batch) one.reject(error);
      return;
    }
    batch.forEach((one, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) one.resolve(outcome.value);
      else one.reject(outcome.error);
    });
  };

  return <T>(steps: () => Steps<T>) =>
    new Promise<T>((resolve, reject) => {
      if (waiting.push({ steps, resolve: resolve as (value: unknown) => void, reject }) === 1)
        setImmediate(runTogether);
    });
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
