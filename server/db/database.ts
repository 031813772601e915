/** Opens the database named by a URL: `sqlite:<path>` (embedded default) or `postgres://...`. */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  type LogEvent,
  PostgresAdapter,
  PostgresDialect,
  type PostgresPool,
  SqliteDialect,
  type SqliteDatabase,
  sql,
} from 'kysely';
import pg from 'pg';
import {
  type BackgroundCheckpoints,
  type CheckpointOptions,
  FALLBACK_CHECKPOINT_PAGES,
  checkpointInBackground,
} from './backgroundCheckpoints';
import { runNamedStatements } from './namedStatements';
import { type Instance, instanceConnectionName, listenForWrites } from './postgresWrites';
import type { Database, Queryable } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /**
   * Whether another connection (a tool, another process) committed since the last call: SQLite's
   * `PRAGMA data_version` (this connection's own commits do not count); on PostgreSQL, opened for an
   * `instance`, what its LISTEN heard (`postgresWrites.ts`).
   */
  committedElsewhere?: () => boolean;
  /** SQLite with `backgroundCheckpoints`: the worker that checkpoints the WAL. */
  checkpoints?: BackgroundCheckpoints;
  /** Opened `timed`: where each statement's duration and each wait for a pool connection go (`/metrics`). */
  timing: StatementTiming | null;
  /** SQLite: the connection run synchronously, for writes' steps (`steps.ts`). Absent on PostgreSQL. */
  now?: NowConnection;
  close(): Promise<void>;
}

/**
 * SQLite's one connection used synchronously, beside Kysely: the statements are the ones Kysely's
 * queries prepare (one cache), timed as Kysely's are when the database is opened `timed`.
 */
export interface NowConnection {
  /** What `prepared` statements compile with (SQLite's adapter). */
  db: Queryable;
  /** Runs one statement: its rows (none for a statement without RETURNING). */
  query(sql: string, parameters: readonly unknown[]): unknown[];
  /** Whether a transaction is open on the connection (Kysely's, between two of its statements). */
  inTransaction(): boolean;
  /** `work` between BEGIN and COMMIT, rolled back if it throws. */
  transaction<T>(work: () => T): T;
  /** What writes wait for before their next transaction, if anything (`BackgroundCheckpoints.hold`). */
  hold(): Promise<void> | null;
}

/** Set by whoever reads them (server/metrics/); until then the measures go nowhere. */
export interface StatementTiming {
  statement: ((sql: string, seconds: number) => void) | null;
  /** PostgreSQL: how long a query waited for a connection from the pool (opening one included). */
  poolWait: ((seconds: number) => void) | null;
}

export interface OpenOptions {
  /** Measure every statement (Kysely's query log) and pool wait: a clock read or two each. */
  timed?: boolean;
  /** SQLite: checkpoint the WAL from a worker thread, not in the commits (the server's own connection). */
  backgroundCheckpoints?: boolean | CheckpointOptions;
  /**
   * PostgreSQL: the server's own connections, named for the instance, and listening for everyone
   * else's writes (`committedElsewhere`). `onBus`: its events reach the other instances (Redis).
   */
  instance?: Instance;
}

/** Kysely's log, when timed: failed statements took their time too. */
const statementLog = (timing: StatementTiming) => (event: LogEvent) =>
  timing.statement?.(event.query.sql, event.queryDurationMillis / 1000);

/** The pool as Kysely sees it, timing each wait for a connection. */
function timedPool(pool: pg.Pool, timing: StatementTiming): PostgresPool {
  return {
    async connect() {
      const start = performance.now();
      const client = await pool.connect();
      timing.poolWait?.((performance.now() - start) / 1000);
      return client;
    },
    end: () => pool.end(),
    Client: pg.Client, // what the pool makes its connections with (Kysely cancels a query through one)
    options: pool.options,
  };
}

/** The dialect behind a database handle or transaction: repositories pick their statements by it. */
export function dialectOf(db: Queryable): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export function isPostgresUrl(url: string): boolean {
  return url.startsWith('postgres://') || url.startsWith('postgresql://');
}

/** A health check's read that takes longer counts as the database down (a balancer's own timeout is ~5 s). */
export const HEALTH_DATABASE_TIMEOUT_MS = 3000;

/**
 * Whether the database answers a read of a real table within `timeoutMs` (health checks): on
 * PostgreSQL a connection is had and a query runs; on SQLite the file is read.
 */
export async function databaseAnswers(db: Kysely<Database>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const read = sql`SELECT 1 FROM users LIMIT 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}

function sqliteFile(url: string): string {
  return url.replace(/^sqlite:(\/\/)?/, '');
}

/**
 * The database file readable by this account only: it holds the private keys of every local actor
 * and the password hashes. SQLite gives its write-ahead log and shared-memory files the database
 * file's permissions when it makes them; an existing install's files are narrowed too.
 */
function keepPrivate(file: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  for (const kept of [`${file}-wal`, `${file}-shm`]) if (existsSync(kept)) chmodSync(kept, 0o600);
}

export function openDatabase(
  url: string,
  { timed = false, backgroundCheckpoints = false, instance }: OpenOptions = {},
): Db {
  const timing: StatementTiming | null = timed ? { statement: null, poolWait: null } : null;
  const log = timing ? statementLog(timing) : undefined;
  if (isPostgresUrl(url)) {
    const name = instance && instanceConnectionName(instance);
    const pool = new pg.Pool({ connectionString: url, max: 10, application_name: name });
    runNamedStatements(pool);
    // A connection dropped by the server (restart, failover, the network) must not crash the
    // process, idle or checked out (a transaction between statements: the pool has no listener on
    // it then). Its queries fail; the pool discards it and opens a new one on the next query.
    pool.on('connect', (client) =>
      client.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`)),
    );
    pool.on('error', () => {}); // an idle client's error, logged by the client's own listener above
    const kysely = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: timing ? timedPool(pool, timing) : pool }),
      log,
    });
    if (!instance) return { kysely, dialect: 'postgres', timing, close: () => kysely.destroy() };
    const writes = listenForWrites(url, instance);
    const close = async () => {
      await writes.close();
      await kysely.destroy();
    };
    return { kysely, dialect: 'postgres', committedElsewhere: writes.committedElsewhere, timing, close };
  }
  const file = sqliteFile(url);
  if (file !== ':memory:') keepPrivate(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode and much faster than FULL.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // A write in a group runs in a savepoint (db/steps.ts), whose undo pages SQLite otherwise moves
  // to a temporary file past 64 KB: most of a comment's system calls went there (docs/benchmarks.md,
  // "Savepoints' undo pages in memory"). In memory they are one write's few pages at a time.
  sqlite.pragma('temp_store = MEMORY');
  const statements = withStatementCache(sqlite);
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }), log });
  const checkpoints =
    backgroundCheckpoints && file !== ':memory:'
      ? checkpointInBackground(file, backgroundCheckpoints === true ? {} : backgroundCheckpoints)
      : undefined;
  const now = nowConnection(sqlite, statements, kysely, timing, () => checkpoints?.hold ?? null);
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  let version = dataVersion.get();
  const committedElsewhere = () => {
    let now: unknown;
    try {
      now = dataVersion.get();
    } catch {
      return true; // unreadable (closed, I/O error): nothing kept can be trusted; the request's own reads answer 503
    }
    if (now === version) return false;
    version = now;
    return true;
  };
  if (!checkpoints)
    return { kysely, dialect: 'sqlite', committedElsewhere, timing, now, close: () => kysely.destroy() };
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  const close = async () => {
    await checkpoints.stop();
    await kysely.destroy();
  };
  return { kysely, dialect: 'sqlite', committedElsewhere, checkpoints, timing, now, close };
}

/**
 * Kysely's SQLite driver prepares every statement on every query, which costs as much as running
 * it (docs/benchmarks/notes.md#caches-and-statements): keep the few dozen statements of the app prepared.
 */
function withStatementCache(
  sqlite: SQLite.Database,
  max = 300,
): SqliteDatabase & { prepare(sql: string): SQLite.Statement } {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql); // re-insert: Map order is the recency order
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

/** The connection's synchronous face: BEGIN, COMMIT and ROLLBACK are statements of the cache too. */
function nowConnection(
  sqlite: SQLite.Database,
  statements: { prepare(sql: string): SQLite.Statement },
  db: Queryable,
  timing: StatementTiming | null,
  hold: () => Promise<void> | null,
): NowConnection {
  const query = (sql: string, parameters: readonly unknown[]): unknown[] => {
    const statement = statements.prepare(sql);
    const start = timing ? performance.now() : 0;
    try {
      if (statement.reader) return statement.all(parameters);
      statement.run(parameters);
      return [];
    } finally {
      if (timing) timing.statement?.(sql, (performance.now() - start) / 1000);
    }
  };
  return {
    db,
    query,
    inTransaction: () => sqlite.inTransaction,
    hold,
    transaction(work) {
      query('begin', []);
      try {
        const result = work();
        query('commit', []);
        return result;
      } catch (error) {
        if (sqlite.inTransaction) query('rollback', []);
        throw error;
      }
    },
  };
}
