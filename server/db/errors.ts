/** True when a write failed on a UNIQUE or PRIMARY KEY constraint, on SQLite or PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Codes that say the database could not be reached or is not taking queries (stopped, restarting,
 * out of connections, a file it cannot open or read), not that the query was wrong: the request may
 * work again in a moment. Also PostgreSQL's class 08 ("connection exception"), SQLite's I/O errors
 * and SQLITE_BUSY (another process held the write lock past `busy_timeout`).
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  '57P01', // admin_shutdown: the server is stopping
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
  'SQLITE_CANTOPEN',
]);
/** node-postgres reports a connection that dropped, or could not be had in time, by message alone. */
const UNREACHABLE_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;

/** What a request answers (503 `DatabaseUnavailable`, with `Retry-After`) while the database is unreachable. */
export const DATABASE_UNAVAILABLE = 'The database is not answering right now. Please try again in a moment.';
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** True when a query failed because the database was unreachable, on SQLite or PostgreSQL. */
export function isDatabaseUnreachable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || /^08|^SQLITE_IOERR|^SQLITE_BUSY/.test(code)))
    return true;
  return typeof message === 'string' && UNREACHABLE_MESSAGE.test(message);
}
