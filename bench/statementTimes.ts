/**
 * `--statements` for the in-process benches: every better-sqlite3 statement timed by this thread's
 * CPU, by its SQL, under the label the bench sets (`statementTimes.label`, e.g. the request's class).
 * Where the kernel counts CPU time in scheduler ticks (4 ms on the bench's VMs) a statement reads
 * 0 or 4,000 µs: only averages over many are worth anything.
 */
import SQLite from 'better-sqlite3';
import { threadCpu } from './inProcessApp';

/** How much of each statement's SQL is printed (`SQL_WIDTH`). */
const SQL_WIDTH = Number(process.env.SQL_WIDTH ?? 160);

export const statementTimes = {
  label: '',
  /** label → SQL → count and µs. */
  byLabel: new Map<string, Map<string, { n: number; us: number }>>(),
  /** Row constructors better-sqlite3 built (one per statement re-prepared), by label. */
  rebuilt: new Map<string, number>(),
  /** Wraps better-sqlite3's statements, and counts re-preparations (once). */
  start() {
    const original = globalThis.Function;
    globalThis.Function = Object.assign(
      function counting(...args: string[]) {
        statementTimes.rebuilt.set(statementTimes.label, (statementTimes.rebuilt.get(statementTimes.label) ?? 0) + 1);
        return original(...args);
      },
      { prototype: original.prototype },
    ) as FunctionConstructor;
    const probe = new SQLite(':memory:');
    const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
    for (const method of ['run', 'all', 'get', 'iterate'] as const) {
      const original = proto[method] as (...args: unknown[]) => unknown;
      proto[method] = function (this: { source: string }, ...args: unknown[]) {
        const start = threadCpu();
        try {
          return original.apply(this, args);
        } finally {
          const times = statementTimes.byLabel.get(statementTimes.label) ?? new Map();
          statementTimes.byLabel.set(statementTimes.label, times);
          const entry = times.get(this.source) ?? { n: 0, us: 0 };
          entry.n += 1;
          entry.us += threadCpu() - start;
          times.set(this.source, entry);
        }
      };
    }
  },
  /** The statements under `label`, dearest first, in µs per one of `requests`. */
  print(label: string, requests: number, top = 12) {
    console.log(
      `    row constructors built (re-preparations): ${((statementTimes.rebuilt.get(label) ?? 0) / requests).toFixed(2)} a request`,
    );
    const times = [...(statementTimes.byLabel.get(label) ?? new Map<string, { n: number; us: number }>())];
    for (const [sql, t] of times.sort((a, b) => b[1].us - a[1].us).slice(0, top))
      console.log(
        `    ${(t.us / requests).toFixed(1).padStart(7)} µs  ×${(t.n / requests).toFixed(2)}  ${sql.replace(/\s+/g, ' ').slice(0, SQL_WIDTH)}`,
      );
  },
};
