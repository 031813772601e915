/**
 * What a row's requests cost the shared services, per request (issue 72: the model of N instances
 * on N machines needs where PostgreSQL and Redis saturate): database statements by kind (each one a
 * round trip on PostgreSQL: node-postgres sends one statement at a time), the bytes the instances
 * sent to and received from the database (their TCP sockets' counters), Redis's commands and bytes
 * (its INFO: every client's, the instances' and their subscribers') and its CPU. Read before and
 * after each measured turn.
 */
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { cpuSecondsOfCommand } from './processes';

/** Where the counters are read: the instances' `/metrics` and pids, and the services' ports. */
export interface CostSources {
  /** `http://host:port/metrics` of each answering instance (METRICS_PORT). */
  metricsUrls: string[];
  pids: number[];
  /** PostgreSQL's port (null on SQLite). */
  databasePort: number | null;
  redis: Redis | null;
}

interface Counters {
  statements: Record<string, number>;
  statementSeconds: number;
  database: { sent: number; received: number };
  redis: { commands: number; input: number; output: number; cpu: number | null } | null;
}

/** Per request, over a row's turns. */
export interface RequestCosts {
  /** Statements by kind (`select`, `insert`, `update`, `delete`, `other`: BEGIN, COMMIT, pragmas). */
  statements: Record<string, number>;
  /** The statements' time as the app waited for them (on PostgreSQL the round trip, queueing included), µs. */
  statementUs: number;
  /** Bytes the instances sent to the database and received from it (PostgreSQL only). */
  databaseBytes: { sent: number; received: number } | null;
  /** Redis's own count of commands (all its clients: the bench's INFO too), bytes in and out, CPU µs. */
  redis: { commands: number; input: number; output: number; cpuUs: number | null } | null;
}

/**
 * Each statement's count by kind, and the seconds they took together as the app waited for them
 * (`seconds`), from the text format (`posts_db_statement_duration_seconds_count{kind="select"} 12`).
 */
export function statementCounts(text: string): { counts: Record<string, number>; seconds: number } {
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(/^posts_db_statement_duration_seconds_count\{kind="(\w+)"\} (\S+)$/gm))
    counts[match[1]] = Number(match[2]);
  let seconds = 0;
  for (const match of text.matchAll(/^posts_db_statement_duration_seconds_sum\{kind="\w+"\} (\S+)$/gm))
    seconds += Number(match[1]);
  return { counts, seconds };
}

/**
 * Bytes sent and received on the established TCP sockets of `pids` to `port`, from `ss -tinp`
 * (each socket's line, then its tcp_info line). A socket closed during a turn takes its bytes with
 * it: the pools keep theirs open under load.
 */
export function socketBytes(ssOutput: string, pids: number[], port: number): { sent: number; received: number } {
  const total = { sent: 0, received: 0 };
  const lines = ssOutput.split('\n');
  for (let i = 0; i < lines.length - 1; i++) {
    const owner = /users:\(\(.*?pid=(\d+),/.exec(lines[i]);
    if (!owner || !pids.includes(Number(owner[1])) || !lines[i].includes(`:${port} `)) continue;
    const info = lines[i + 1];
    total.sent += Number(/bytes_sent:(\d+)/.exec(info)?.[1] ?? 0);
    total.received += Number(/bytes_received:(\d+)/.exec(info)?.[1] ?? 0);
  }
  return total;
}

const sockets = (pids: number[], port: number | null) => {
  if (port === null) return { sent: 0, received: 0 };
  const ss = spawnSync('ss', ['-tinpH', 'state', 'established', `( dport = :${port} )`], { encoding: 'utf8' });
  return socketBytes(ss.stdout ?? '', pids, port);
};

/** `field:value` lines of Redis's INFO. */
const infoField = (info: string, field: string) => Number(new RegExp(`^${field}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);

async function read(sources: CostSources): Promise<Counters> {
  const statements: Record<string, number> = {};
  let statementSeconds = 0;
  for (const url of sources.metricsUrls) {
    const { counts, seconds } = statementCounts(await (await fetch(url)).text());
    for (const [kind, n] of Object.entries(counts)) statements[kind] = (statements[kind] ?? 0) + n;
    statementSeconds += seconds;
  }
  let redis: Counters['redis'] = null;
  if (sources.redis) {
    const info = await sources.redis.info('stats');
    redis = {
      commands: infoField(info, 'total_commands_processed'),
      input: infoField(info, 'total_net_input_bytes'),
      output: infoField(info, 'total_net_output_bytes'),
      cpu: cpuSecondsOfCommand('redis-server'),
    };
  }
  return {
    statements,
    statementSeconds,
    database: sockets(sources.pids, sources.databasePort),
    redis,
  };
}

/** Counts what a row's turns cost: `start()` before a turn, `stop()` after it; `perRequest` at the end. */
export function costMeter(sources: CostSources) {
  const spent: Counters = {
    statements: {},
    statementSeconds: 0,
    database: { sent: 0, received: 0 },
    redis: sources.redis ? { commands: 0, input: 0, output: 0, cpu: 0 } : null,
  };
  let before: Counters | null = null;
  const add = (a: number | null, from: number | null, to: number | null) =>
    a === null || from === null || to === null ? null : a + to - from;
  return {
    async start() {
      before = await read(sources);
    },
    async stop() {
      const after = await read(sources);
      const b = before!;
      for (const [kind, n] of Object.entries(after.statements))
        spent.statements[kind] = (spent.statements[kind] ?? 0) + n - (b.statements[kind] ?? 0);
      spent.statementSeconds += after.statementSeconds - b.statementSeconds;
      spent.database.sent += after.database.sent - b.database.sent;
      spent.database.received += after.database.received - b.database.received;
      if (spent.redis && after.redis && b.redis) {
        spent.redis.commands += after.redis.commands - b.redis.commands;
        spent.redis.input += after.redis.input - b.redis.input;
        spent.redis.output += after.redis.output - b.redis.output;
        spent.redis.cpu = add(spent.redis.cpu, b.redis.cpu, after.redis.cpu);
      }
    },
    perRequest(requests: number): RequestCosts {
      const per = (n: number) => n / requests;
      return {
        statements: Object.fromEntries(Object.entries(spent.statements).map(([kind, n]) => [kind, per(n)])),
        statementUs: per(spent.statementSeconds * 1e6),
        databaseBytes:
          sources.databasePort === null
            ? null
            : { sent: per(spent.database.sent), received: per(spent.database.received) },
        redis: spent.redis && {
          commands: per(spent.redis.commands),
          input: per(spent.redis.input),
          output: per(spent.redis.output),
          cpuUs: spent.redis.cpu === null ? null : (spent.redis.cpu * 1e6) / requests,
        },
      };
    },
  };
}

/** One line of a row's costs a request, for the log and the report. */
export function describeCosts(costs: RequestCosts): string {
  const total = Object.values(costs.statements).reduce((a, b) => a + b, 0);
  const kinds = Object.entries(costs.statements)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${kind} ${n.toFixed(2)}`)
    .join(', ');
  const parts = [
    `statements ${total.toFixed(2)}${kinds ? ` (${kinds})` : ''}, ${costs.statementUs.toFixed(0)} µs waited`,
  ];
  if (costs.databaseBytes)
    parts.push(
      `database bytes ${costs.databaseBytes.sent.toFixed(0)} sent, ${costs.databaseBytes.received.toFixed(0)} received`,
    );
  if (costs.redis)
    parts.push(
      `Redis commands ${costs.redis.commands.toFixed(2)}, bytes ${costs.redis.input.toFixed(0)} in, ${costs.redis.output.toFixed(0)} out` +
        `${costs.redis.cpuUs === null ? '' : `, CPU ${costs.redis.cpuUs.toFixed(1)} µs`}`,
    );
  return parts.join('; ');
}
