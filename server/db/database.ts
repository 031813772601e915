/** Opens the database named by a URL: `sqlite:<path>` (embedded default) or `postgres://...`. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, type SqliteDatabase, sql } from 'kysely';
import pg from 'pg';
import { runNamedStatements } from './namedStatements';
import type { Database, Queryable } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /**
   * SQLite: whether another connection (a tool, another process) committed since the last call,
   * from `PRAGMA data_version` (this connection's own commits do not count). Absent on PostgreSQL.
   */
  committedElsewhere?: () => boolean;
  close(): Promise<void>;
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

export function openDatabase(url: string): Db {
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    runNamedStatements(pool);
    // A connection dropped by the server (restart, failover, the network) must not crash the
    // process, idle or checked out (a transaction between statements: the pool has no listener on
    // it then). Its queries fail; the pool discards it and opens a new one on the next query.
    pool.on('connect', (client) =>
      client.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`)),
    );
    pool.on('error', () => {}); // an idle client's error, logged by the client's own listener above
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
  }
  const file = sqliteFile(url);
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode and much faster than FULL.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
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
  return { kysely, dialect: 'sqlite', committedElsewhere, close: () => kysely.destroy() };
}

/**
 * Kysely's SQLite driver prepares every statement on every query, which costs as much as running
 * it (docs/benchmarks.md#caches-and-statements): keep the few dozen statements of the app prepared.
 */
function withStatementCache(sqlite: SQLite.Database, max = 300): SqliteDatabase {
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
