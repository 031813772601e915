/**
 * Bulk writers for the seed, one per database. They bypass Kysely on purpose: per-row query
 * building costs more than the insert itself at millions of rows.
 *  - SQLite: its own better-sqlite3 connection, one prepared statement per table reused for every
 *    row, big transactions, `synchronous=OFF` and no FK checks while loading (the generator makes
 *    consistent rows; `foreign_key_check` runs at the end).
 *  - PostgreSQL: multi-row parameterised INSERTs (up to ~65k parameters each), several per
 *    transaction, `synchronous_commit=off` for the session.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { isPostgresUrl } from '../../server/db/database';

export type Value = string | number | null;

export interface Sink {
  readonly dialect: 'sqlite' | 'postgres';
  /** Queues a row; rows are written in batches. `columns` must be the same for a table. */
  insert(table: string, columns: readonly string[], row: Value[]): Promise<void>;
  /** Writes everything queued. */
  flush(): Promise<void>;
  /** Runs one statement outside the batches (counters, checks). */
  exec(sql: string): Promise<void>;
  /** Writes what is queued, restores what the load changed, checks and closes. */
  close(): Promise<void>;
  /** After a failure: drops what is queued, restores the schema, closes without checks. */
  abort(): Promise<void>;
}

const SQLITE_BATCH = 20_000;

function sqliteSink(file: string): Sink {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = OFF');
  db.pragma('cache_size = -262144'); // 256 MiB of page cache: index pages stay in memory
  db.pragma('temp_store = MEMORY');
  // Secondary indexes are dropped for the load and rebuilt at the end: building an index from
  // sorted data is several times faster than inserting millions of random keys into a B-tree.
  // (Indexes behind PRIMARY KEY/UNIQUE constraints cannot be dropped; their `sql` is null.)
  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
    AND tbl_name IN ('posts', 'post_tags', 'post_reactions', 'comments', 'follows')`,
    )
    .all() as { name: string; sql: string }[];
  for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
  const statements = new Map<string, SQLite.Statement>();
  let queue: { stmt: SQLite.Statement; row: Value[] }[] = [];
  const writeQueued = db.transaction((rows: { stmt: SQLite.Statement; row: Value[] }[]) => {
    for (const { stmt, row } of rows) stmt.run(row);
  });
  const flush = async () => {
    if (queue.length === 0) return;
    writeQueued(queue);
    queue = [];
  };
  return {
    dialect: 'sqlite',
    async insert(table, columns, row) {
      let stmt = statements.get(table);
      if (!stmt) {
        stmt = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
        statements.set(table, stmt);
      }
      queue.push({ stmt, row });
      if (queue.length >= SQLITE_BATCH) await flush();
    },
    flush,
    async exec(sql) {
      await flush();
      db.exec(sql);
    },
    async abort() {
      queue = [];
      for (const index of indexes) db.exec(index.sql.replace(/^CREATE INDEX/i, 'CREATE INDEX IF NOT EXISTS'));
      db.close();
    },
    async close() {
      await flush();
      const started = performance.now();
      for (const index of indexes) db.exec(index.sql);
      process.stderr.write(
        `  indexes          ${indexes.length} rebuilt in ${((performance.now() - started) / 1000).toFixed(1)}s\n`,
      );
      const broken = db.pragma('foreign_key_check') as unknown[];
      if (broken.length > 0) throw new Error(`Seed produced ${broken.length} rows with dangling references`);
      // No ANALYZE: the app never runs it, so the benchmark sees the query plans production sees.
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}

const PG_MAX_PARAMS = 60_000;
const PG_STATEMENTS_PER_TX = 10;

function postgresSink(url: string): Sink {
  const client = new pg.Client({ connectionString: url });
  const connected = client.connect().then(() => client.query('SET synchronous_commit = off'));
  const pending = new Map<string, { columns: readonly string[]; rows: Value[][] }>();
  let statementsInTx = 0;
  let inTx = false;

  const writeTable = async (table: string) => {
    const batch = pending.get(table);
    if (!batch || batch.rows.length === 0) return;
    await connected;
    if (!inTx) {
      await client.query('BEGIN');
      inTx = true;
    }
    const width = batch.columns.length;
    const params: Value[] = [];
    const tuples = batch.rows.map((row, r) => {
      params.push(...row);
      return `(${row.map((_, c) => `$${r * width + c + 1}`).join(', ')})`;
    });
    const sql = `INSERT INTO ${table} (${batch.columns.join(', ')}) VALUES ${tuples.join(', ')}`;
    batch.rows = [];
    await client.query(sql, params);
    if (++statementsInTx >= PG_STATEMENTS_PER_TX) await commit();
  };
  const commit = async () => {
    if (inTx) await client.query('COMMIT');
    inTx = false;
    statementsInTx = 0;
  };
  const flush = async () => {
    for (const table of pending.keys()) await writeTable(table);
    await commit();
  };
  return {
    dialect: 'postgres',
    async insert(table, columns, row) {
      let batch = pending.get(table);
      if (!batch) {
        batch = { columns, rows: [] };
        pending.set(table, batch);
      }
      batch.rows.push(row);
      // A full batch writes every table's queue in first-use order, parents (posts) before
      // children (post_tags): foreign keys are checked on every INSERT in PostgreSQL.
      if ((batch.rows.length + 1) * columns.length > PG_MAX_PARAMS) await flush();
    },
    flush,
    async exec(sql) {
      await flush();
      await client.query(sql);
    },
    async close() {
      await flush();
      // VACUUM too: a freshly loaded table has no visibility map, so index-only scans fetch
      // every heap row, and no hint bits, so each row's first read looks its transaction up.
      // Autovacuum does this in production, but lazily, and it was off on a benchmark machine
      // (relallvisible 0 on every D1 table after the seed). VACUUM cannot mark a page
      // all-visible while its rows' (asynchronous) commits are not yet flushed: ANALYZE
      // committed synchronously first flushes the WAL up to its own commit, theirs included.
      await client.query('SET synchronous_commit = on');
      await client.query('ANALYZE');
      await client.query('VACUUM');
      await client.end();
    },
    async abort() {
      pending.clear();
      if (inTx) await client.query('ROLLBACK').catch(() => {});
      await client.end();
    },
  };
}

export function openSink(databaseUrl: string): Sink {
  return isPostgresUrl(databaseUrl)
    ? postgresSink(databaseUrl)
    : sqliteSink(databaseUrl.replace(/^sqlite:(\/\/)?/, ''));
}
