/**
 * `npm run bench`: the production server on the D1 dataset under load, next to two references
 * measured in the same run on the same machine, plus the image pipeline. Prints every figure and
 * the targets of docs/benchmarks.md; it never fails on a missed target (figures, not tests).
 *
 * Flags: --seconds 10 (per row) --warmup 3 (per row) --server-warmup 10 (before a server's first row)
 *        --segment-seconds 2 (turns of a first page, its deep page and the Next.js route)
 *        --turn-lead 1 (unmeasured load before each turn: the server was idle during the others')
 *        --connections 50 --threads 1 --only <regex>
 *        --skip-images --cpu-prof (server writes a .cpuprofile into $DATA_DIR/profiles)
 *        --streams 1000 (notification streams held open while the feed rows run again; 0: none)
 *        --node-options="<flags for the server's node>" --env "NAME=value,..." (experiments)
 *        --mix (only a community's rows: the mix and each of its classes alone; `community.ts`), in
 *        each of issue 72's settings the environment allows, one after the other (`settings.ts`):
 *        SQLite with a cluster's settings, PostgreSQL with the defaults, the cluster
 *        --settings sqlite,postgres,cluster (which of them; `--cluster N` alone: the cluster only)
 *        --readers 200,2000 (signed-in readers of the mix rows; the classes alone take the first)
 *        --cluster 2 (the cluster's instances: the mix rows through `npm run cluster`'s balancer;
 *        needs DATABASE_URL on PostgreSQL and REDIS_URL)
 *        --app-root <dir> (the app of another checkout, e.g. the code before a change, on the same
 *        data: run the bench once with it and once without, back to back, to compare the two)
 *        --federation (only the federation rows, `federation.ts`: a post to 10,000 followers on 100
 *        servers, deliveries per second, signed inbox activities per second)
 * Environment: DATA_DIR (default ./data/bench) or DATABASE_URL, as for `npm start`. An empty
 * database is first seeded with D1 (`npm run seed`, a few minutes).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { PAGE_LIMIT_DEFAULT } from '../lib/limits';
import { count, parseFlags } from '../scripts/seed/args';
import { SEED_PASSWORD } from '../scripts/seed/write';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { blockedEitherWay } from '../server/safety/visibility';
import { startCluster } from '../scripts/cluster/cluster';
import { logFile } from '../scripts/cluster/processes';
import {
  type CommunityData,
  OPEN_TO_ANYONE,
  benchViewer,
  communityClasses,
  communityData,
  drawMix,
  hasAudiences,
  writerPicture,
} from './community';
import { runFederationBench } from './federation';
import { runImageBench, type ImageRow } from './images';
import {
  cpuSecondsOf,
  cpuSecondsOfCommand,
  memoryOf,
  startServer,
  stopServer,
  waitUntilUp,
  watchMemory,
  type Server,
} from './processes';
import { openStreams } from './streams';
import { type LoadRequest, type LoadResult, type MixEntry, combineResults, haveWrk, runWrk } from './wrk';
import { clientApiToken } from './clientApiToken';
import { type RequestCosts, costMeter, describeCosts } from './requestCosts';
import { type RowSummary, type SettingResults, runSettings } from './settings';
import { freePort } from '../tests/server/remoteServer';
import { COMMUNITY_DEEP_FROM, login, loginAll, pageCursors, uploadPicture, waitForFeedIndex } from './appUnderTest';

const root = path.resolve(import.meta.dirname, '..');
const flags = parseFlags(process.argv.slice(2));
/** The checkout whose app is measured (`--app-root`): this one unless told. */
const appRoot = path.resolve(flags.get('app-root') ?? root);
const seconds = count(flags, 'seconds', 10);
const warmup = count(flags, 'warmup', 3);
/**
 * Extra warm-up before each server's first row: a fresh process is still compiling its hot code and
 * collecting start-up garbage (the app: its feed index's loading), which cost the first row measured
 * 20–25% of its throughput. Steady state is what the rows compare.
 */
const serverWarmup = count(flags, 'server-warmup', 10);
/** A first page, its deep page and the Next.js route take turns of this many seconds (see `measure`). */
const segmentSeconds = count(flags, 'segment-seconds', 2);
const connections = count(flags, 'connections', 50);
/**
 * One wrk thread, as a plain `wrk -t1` run: on two shared cores a second thread competes with the
 * server it measures (docs/benchmarks/method.md, "Method").
 */
const threads = count(flags, 'threads', 1);
const only = flags.has('only') ? new RegExp(flags.get('only')!, 'i') : null;
/** Open notification streams during the repeat of the feed rows (issue 21: 1,000 on one instance). */
const streamCount = count(flags, 'streams', 1000);
/** Sessions the streams are spread over (seeded users, each signed in once; the server takes 32 per user). */
const STREAM_USERS = 50;
/** The rows measured again with the streams open: the feeds. */
const FEED_ROW = /^(home feed|everyone),/;
/** Only the community rows (issue 31): the mix, and each of its classes alone with the first reader count. */
const mixOnly = flags.has('mix') || flags.has('cluster');
/** One of issue 72's settings, run by `settings.ts` (which starts this script once per setting). */
const setting = flags.get('setting') ?? null;
/** Where a setting's run writes its rows for `settings.ts`'s summary. */
const resultsJson = flags.get('results-json') ?? null;
const readerCounts = (flags.get('readers') ?? '200,2000').split(',').map(Number);
if (readerCounts.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error('--readers takes whole numbers, e.g. 200,2000');
/** --cluster: instances behind the balancer; only the mix rows. */
const clusterSize = flags.has('cluster') ? count(flags, 'cluster', 2) : 0;
if (flags.has('cluster') && clusterSize < 2) throw new Error('--cluster takes the number of instances, 2 or more');
/** The mix's target (issues 31, 72): 1.5× the Next.js route on SQLite, 1.2× on PostgreSQL; a write class alone 1×. */
const MIX_TARGET = 1.5;
const MIX_TARGET_POSTGRES = 1.2;
/**
 * The cluster's mix (issue 72): 1.3× one instance on PostgreSQL. Both are held against the Next.js
 * route in their own turns, so the cluster's target is 1.3× the PostgreSQL setting's ratio, which
 * `settings.ts` passes as `--postgres-mix 200=1.25,2000=1.1` (without it the cluster row has none).
 */
const CLUSTER_TARGET = 1.3;
const postgresMix = new Map(
  (flags.get('postgres-mix') ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split('=').map(Number) as [number, number]),
);
const WRITE_CLASS_TARGET = 1;
/** A profile's posts alone (issue 72): 2× the route on either database, where other read classes take 1.5× on PostgreSQL. */
const PROFILE_CLASS = "a profile's posts";
const PROFILE_CLASS_TARGET = 2;
/** The client API's timelines against the same lists on `/api/posts` (issue 33): within 10%. */
const CLIENT_API_TARGET = 0.9;

process.env.DATA_DIR ??= path.join(root, 'data', 'bench');
process.env.NEXT_TELEMETRY_DISABLED = '1';
const config = loadConfig();
const node = process.execPath;
const tsxImport = ['--import', 'tsx'];

interface Row {
  name: string;
  kind: 'reference' | 'read' | 'write';
  /** The first-page row a deep page is compared with. */
  firstOf?: string;
  /** Held against the Next.js route in turns at this multiple (a read row without one: `READ_TARGET`; null: none). */
  target?: number | null;
  /** What the target stands for, when it is not a multiple of the route (the cluster's: one instance on PostgreSQL). */
  targetLabel?: string;
  /** Held at `target`× this row of its group instead (the client API's timelines: the same list on `/api/posts`). */
  versus?: string;
  /** Its p99 must stay at or under this many ms (the community rows). */
  p99TargetMs?: number;
  /** The same row measured without the streams open (this one ran with them). */
  withoutStreams?: string;
  result: LoadResult;
  /** The answering server's CPU time per request (user + system), µs; null when unreadable. */
  cpuUs: number | null;
  /** PostgreSQL's CPU time per request (all its local processes), µs; null on SQLite or a remote database. */
  dbCpuUs: number | null;
  /** A read row's reference: the empty Next.js route measured in turns with the row (`measure`). */
  nextInTurns?: Measured;
  /** The same route (for a reference row: the same server) by a plain `wrk -t1` in the same turns. */
  plain?: Measured;
  /** What each request cost the database and Redis (`requestCosts.ts`): the app's rows. */
  costs?: RequestCosts;
}

/** A read row's req/s target, in multiples of the empty Next.js route's (issue 24; 1.5× on PostgreSQL). */
const READ_TARGET = 2;
const READ_TARGET_POSTGRES = 1.5;
/** Between two turns: the last turn's server answers what was in flight and closes its sockets. */
const TURN_PAUSE_MS = 250;
/**
 * Seconds of unmeasured load before each turn: a server idle through the other members' turns
 * answered its first second at a higher CPU per request (docs/benchmarks/method.md, "Method").
 */
const turnLead = count(flags, 'turn-lead', 1);

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function machine(): string {
  const cpus = os.cpus();
  const sqlite = spawnSync(
    node,
    [
      '-e',
      'const D=require("better-sqlite3");console.log(new D(":memory:").prepare("select sqlite_version() v").get().v)',
    ],
    { cwd: root, encoding: 'utf8' },
  );
  return [
    `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}`,
    `${mb(os.totalmem())} RAM`,
    `${os.type()} ${os.release()}`,
    `Node ${process.version}`,
    config.databaseUrl.startsWith('postgres')
      ? 'database PostgreSQL'
      : `database SQLite ${sqlite.stdout.trim() || '?'}`,
    config.redisUrl ? 'the Redis bus on' : 'no Redis',
    `load average at start ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  ].join(', ');
}

async function ensureSeeded(): Promise<void> {
  const db = openDatabase(config.databaseUrl);
  await migrateToLatest(db.kysely);
  const users = await db.kysely
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  await db.close();
  if (Number(users.n) > 0) return;
  console.log('The benchmark database is empty: seeding D1 first.');
  const seeded = spawnSync(node, [...tsxImport, path.join(root, 'scripts', 'seed.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (seeded.status !== 0) throw new Error('Seeding failed');
}

/** What the rows need from the dataset, read straight from the database before the server starts. */
async function fixtures() {
  const db = openDatabase(config.databaseUrl);
  const k = db.kysely;
  const viewer = await benchViewer(k);
  // The profile row reads a profile the viewer may see: one it blocks would answer an empty page.
  const prolific = await k
    .selectFrom('users')
    .select('username')
    .where((eb) => eb.not(blockedEitherWay(k, viewer.id, 'users.id')))
    .orderBy('posts_count', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const audiences = await hasAudiences(k);
  const hot = await k
    .selectFrom('posts')
    .select(['id', 'comments_count'])
    .$if(audiences, (q) => q.where('audience', 'in', OPEN_TO_ANYONE))
    .orderBy('comments_count', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const byUse = (direction: 'asc' | 'desc') =>
    k
      .selectFrom('post_tags')
      .select(['tag', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('tag')
      .orderBy('n', direction)
      .limit(1)
      .executeTakeFirstOrThrow();
  const [common, rare] = [await byUse('desc'), await byUse('asc')];
  // Writes spread over many recent posts, as real traffic does (and never pile onto one row); posts
  // of people blocked either way answer 404 to the viewer, so they are left out.
  const recent = await k
    .selectFrom('posts')
    .select('id')
    .where((eb) => eb.not(blockedEitherWay(k, viewer.id, 'posts.creator_id')))
    .$if(audiences, (q) => q.where('audience', 'in', OPEN_TO_ANYONE))
    .orderBy('id', 'desc')
    .limit(2000)
    .execute();
  const streamUsers = await k.selectFrom('users').select('email').orderBy('id').limit(STREAM_USERS).execute();
  const community = await communityData(k, Math.max(...readerCounts));
  await db.close();
  return {
    viewer,
    prolific: prolific.username,
    hot,
    common,
    rare,
    writePosts: recent.map((r) => r.id),
    streamEmails: streamUsers.map((u) => u.email),
    community,
  };
}

/** The app the rows load: one server, or a cluster behind its balancer. */
interface AppUnderTest {
  url: string;
  /** Who answers the app's URL (a cluster: its instances behind the balancer). */
  answering: Map<string, Answering>;
  /** The process whose memory is watched (a cluster's first instance). */
  memoryPid: number;
  stop(): Promise<void>;
}

/** The production server exactly as `npm start` runs it (scripts/start.sh execs node: the process measured is the server). */
async function startSingleApp(port: number, env: Record<string, string>): Promise<AppUnderTest> {
  // Its statements are counted on its metrics listener, as a monitored deployment's are.
  const metricsPort = await freePort();
  const server = startServer(
    'app',
    'sh',
    [path.join(appRoot, 'scripts', 'start.sh')],
    { ...env, PORT: String(port), METRICS_HOST: '127.0.0.1', METRICS_PORT: String(metricsPort) },
    appRoot,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(server, `${url}/api/instance`);
  await waitForFeedIndex(url);
  const metricsUrls = [`http://127.0.0.1:${metricsPort}/metrics`];
  return {
    url,
    answering: new Map([[url, { name: 'app', pids: [server.child.pid!], metricsUrls }]]),
    memoryPid: server.child.pid!,
    stop: () => stopServer(server),
  };
}

/** `npm run cluster` with `clusterSize` instances on the balancer's `port` (its log: $DATA_DIR/bench-cluster.log). */
async function startClusterApp(port: number, env: Record<string, string>): Promise<AppUnderTest> {
  const log = path.join(config.dataDir, 'bench-cluster.log');
  console.log(`Starting ${clusterSize} instances behind the balancer (log: ${path.relative(root, log)})...`);
  const cluster = await startCluster({
    size: clusterSize,
    host: '127.0.0.1',
    port,
    env: { ...process.env, ...env },
    output: logFile(log),
    say: (line) => console.log(`  ${line}`),
  });
  for (const instance of cluster.instances) await waitForFeedIndex(instance.url);
  const pids = cluster.instances.map((instance) => instance.process.pid!);
  const metricsUrls = cluster.instances.map((instance) => `http://${instance.metricsAddress}/metrics`);
  return {
    url: cluster.url,
    answering: new Map([[cluster.url, { name: 'cluster', pids, metricsUrls }]]),
    memoryPid: cluster.instances[0].process.pid!,
    stop: () => cluster.stop(),
  };
}

/** The community rows' p99 goal (issue 31), at the bench's 50 connections. */
const COMMUNITY_P99_MS = 50;
/** Sessions older than this are signed in again before a row: access tokens live 15 minutes. */
const SESSION_REFRESH_MS = 10 * 60_000;

/**
 * The community's readers and writer, signed in up front (4 at a time: each sign-in is an argon2
 * hash) and again once their sessions near the end of their access tokens' life.
 */
function signedInReaders(baseUrl: string, community: CommunityData) {
  let readers: string[] = [];
  let writer = '';
  let at = 0;
  return {
    async refresh() {
      if (Date.now() - at < SESSION_REFRESH_MS) return;
      console.log(`Signing in ${community.readers.length} readers and the writer...`);
      const signedIn = await loginAll(baseUrl, community.readers);
      [readers, writer, at] = [signedIn, await login(baseUrl, community.writer), Date.now()];
    },
    cookies: (count: number) => ({ readerCookies: readers.slice(0, count), writerCookie: writer }),
  };
}

/** Sends one request; throws unless it succeeds. */
async function sendOnce(url: string, method: string, headers: Record<string, string> = {}, body?: string) {
  const res = await fetch(url, { method, headers, body });
  await res.arrayBuffer();
  if (res.status >= 400) throw new Error(`${method} ${url} answered ${res.status}`);
}

async function checkOnce(baseUrl: string, request: LoadRequest): Promise<void> {
  if (!request.mix) return sendOnce(baseUrl + request.paths[0], request.method ?? 'GET', request.headers, request.body);
  // Every kind of request the mix holds, once, as its first reader (or its writer).
  const { entries, readerCookies, writerCookie } = request.mix;
  const kinds = new Map(entries.map((e) => [`${e.method} ${e.path.replace(/[0-9a-f-]{36}|\?.*$/g, '')}`, e]));
  for (const e of kinds.values())
    await sendOnce(
      baseUrl + e.path,
      e.method,
      {
        cookie: e.writer ? writerCookie : readerCookies[0],
        ...(e.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      e.body,
    );
}

const usedDatabase = config.databaseUrl.startsWith('postgres');
/** What the app's rows cost PostgreSQL and Redis, per request (`requestCosts.ts`): its port, and Redis when the app uses it. */
const databasePort = usedDatabase ? Number(new URL(config.databaseUrl).port || 5432) : null;
const redisClient = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: true }) : null;
const databaseCpuSeconds = () => (usedDatabase ? cpuSecondsOfCommand('postgres') : null);
/** CPU seconds spent over a row → µs per request; null when the CPU time was unreadable. */
const perRequest = (seconds: number | null, requests: number) => (seconds === null ? null : (seconds * 1e6) / requests);
/** A running total of CPU seconds: null once any reading was unreadable. */
const addSpent = (total: number | null, before: number | null, after: number | null) =>
  total === null || before === null || after === null ? null : total + after - before;

/** Who answers a URL: the processes whose CPU time is its rows' cost (a balancer's: its instances'). */
interface Answering {
  name: string;
  pids: number[];
  /** The app's instances' `/metrics` (METRICS_PORT): their statements, for `requestCosts.ts`. */
  metricsUrls?: string[];
}
/** CPU seconds of all of them; null once any is unreadable. */
function cpuSecondsOfAll(pids: number[]): number | null {
  let total: number | null = 0;
  for (const pid of pids) total = addSpent(total, 0, cpuSecondsOf(pid));
  return total;
}

/** One row to measure: its name (for the log and the wrk script), its request and who answers it. */
interface Measurand {
  name: string;
  request: LoadRequest;
  url: string;
  server: Answering;
  readsDatabase: boolean;
  /** Measured by a plain `wrk -t1` (no script): a reference's check figure. */
  plain?: boolean;
}
interface Measured {
  result: LoadResult;
  cpuUs: number | null;
  dbCpuUs: number | null;
  costs?: RequestCosts;
}

/**
 * Measures one row, or rows compared with each other (a list's first and deep page, and the
 * Next.js route a read row is held against) in turns of `segmentSeconds` until each has had
 * `seconds`: on shared cores other processes' bursts then slow them alike instead of whichever
 * row ran at the time (adjacent 10 s rows differed by up to 18% with nothing changed between
 * them, and the route itself by 25% between runs an hour apart).
 */
async function measure(group: Measurand[], scriptDir: string, warmedUp: Set<Answering>): Promise<Measured[]> {
  const optionsOf = (url: string) => ({ baseUrl: url, connections, threads, scriptDir });
  for (const { name, request, url, server, plain } of group) {
    await checkOnce(url, request);
    // A plain run's server was warmed up by the same route's own member of the group.
    if (plain) continue;
    const warm = warmup + (warmedUp.has(server) ? 0 : serverWarmup);
    warmedUp.add(server);
    if (warm > 0) await runWrk(request, { ...optionsOf(url), seconds: warm }, `${name}-warmup`);
  }
  const turns = group.length > 1 ? Math.max(1, Math.round(seconds / segmentSeconds)) : 1;
  const perTurn = group.length > 1 ? Math.max(1, Math.round(seconds / turns)) : seconds;
  const parts = group.map(() => ({ results: [] as LoadResult[], cpu: 0 as number | null, dbCpu: 0 as number | null }));
  const meters = group.map(({ server, readsDatabase }) =>
    readsDatabase && server.metricsUrls
      ? costMeter({ metricsUrls: server.metricsUrls, pids: server.pids, databasePort, redis: redisClient })
      : null,
  );
  for (let turn = 0; turn < turns; turn++) {
    for (const [index, { name, request, url, server, readsDatabase, plain }] of group.entries()) {
      await new Promise((resolve) => setTimeout(resolve, TURN_PAUSE_MS));
      if (group.length > 1 && turnLead > 0)
        await runWrk(request, { ...optionsOf(url), seconds: turnLead, plain }, `${name}-lead`);
      // The counters are read outside the CPU readings: their scrape is not the row's cost.
      await meters[index]?.start();
      const [cpuBefore, dbBefore] = [cpuSecondsOfAll(server.pids), readsDatabase ? databaseCpuSeconds() : null];
      const result = await runWrk(request, { ...optionsOf(url), seconds: perTurn, plain }, name);
      const [cpuAfter, dbAfter] = [cpuSecondsOfAll(server.pids), readsDatabase ? databaseCpuSeconds() : null];
      await meters[index]?.stop();
      const part = parts[index];
      part.results.push(result);
      part.cpu = addSpent(part.cpu, cpuBefore, cpuAfter);
      part.dbCpu = addSpent(part.dbCpu, dbBefore, dbAfter);
    }
  }
  return group.map(({ name }, index) => {
    const result = combineResults(parts[index].results);
    const cpuUs = perRequest(parts[index].cpu, result.requests);
    const dbCpuUs = perRequest(parts[index].dbCpu, result.requests);
    const costs = meters[index]?.perRequest(result.requests);
    console.log(
      `  ${name.padEnd(34)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${ms(result.p50).padStart(6)} ms  p99 ${ms(result.p99).padStart(6)} ms` +
        `  CPU ${cpuUs === null ? '?' : cpuUs.toFixed(0)} µs/req${dbCpuUs === null ? '' : ` (+ database ${dbCpuUs.toFixed(0)})`}` +
        `${result.errors ? `  ${result.errors} errors` : ''}${costs ? `\n  ${''.padEnd(34)} a request: ${describeCosts(costs)}` : ''}`,
    );
    return { result, cpuUs, dbCpuUs, costs };
  });
}

/**
 * Peak RSS targets: issue 5's run, and a community's mix with its readers' reactions (issue 31; issue
 * 72: 450 MB with 2,000 readers).
 */
const RSS_TARGET_MB = { rows: 300, mix: 400, mixWith2000Readers: 450 };

function report(
  rows: Row[],
  images: ImageRow[],
  peakRss: number,
  rssTargetMb: number,
  machineText: string,
): { text: string; summaries: RowSummary[]; missed: string[] } {
  const http = rows.find((r) => r.name === 'reference: node:http');
  const nextRef = rows.find((r) => r.name === 'reference: Next.js API route');
  const ratio = (row: Row, ref?: Measured) => (ref ? `${(row.result.rps / ref.result.rps).toFixed(2)}` : '–');
  // A read row is held against the route measured in turns with it; other rows against its own row.
  const nextOf = (row: Row): Measured | undefined => row.nextInTurns ?? nextRef;
  const us = (value: number | null) => (value === null ? '?' : value.toFixed(0));
  // PostgreSQL's own CPU per request, where it runs on this machine: part of each request's cost.
  const withDatabase = rows.some((row) => row.dbCpuUs !== null);
  const readTarget = usedDatabase ? READ_TARGET_POSTGRES : READ_TARGET;
  const lines = [
    `Machine: ${machineText}`,
    `Load: wrk, ${connections} connections, ${threads} threads, ${seconds} s per row after ${warmup} s warm-up (${warmup + serverWarmup} s before a server's first row).`,
    '',
    `| Row | req/s | p50 ms | p99 ms | server CPU µs/req |${withDatabase ? ' PostgreSQL CPU µs/req |' : ''} ÷ node:http | Next API req/s (CPU µs/req), same turns | plain wrk -t1 req/s, same turns | ÷ Next API | errors | targets |`,
    `|---|---:|---:|---:|---:|${withDatabase ? '---:|' : ''}---:|---:|---:|---:|---:|---|`,
  ];
  const missed: string[] = [];
  const summaries: RowSummary[] = [];
  for (const row of rows) {
    const notes: string[] = [];
    const r = row.result;
    // null: no multiple to hold it at (the cluster's mix without the PostgreSQL setting's figure).
    const target = row.target === null ? null : (row.target ?? (row.kind === 'read' ? readTarget : undefined));
    if (target !== undefined) {
      const next = nextOf(row);
      const versus = row.versus ? rows.find((x) => x.name === row.versus) : undefined;
      if (target === null) {
        // Only the p99 and the errors below.
      } else if (versus) {
        if (r.rps < target * versus.result.rps) notes.push(`below ${target}× ${versus.name}`);
      } else if (next && r.rps < target * next.result.rps)
        notes.push(`below ${row.targetLabel ?? `${target}× Next API`}`);
      if (r.p99 >= 10 * r.p50) notes.push('p99 ≥ 10× p50');
      if (row.p99TargetMs !== undefined && r.p99 > row.p99TargetMs) notes.push(`p99 over ${row.p99TargetMs} ms`);
      const first = row.firstOf ? rows.find((x) => x.name === row.firstOf) : undefined;
      if (first && r.rps < 0.9 * first.result.rps)
        notes.push(`deep ${((1 - r.rps / first.result.rps) * 100).toFixed(0)}% slower`);
      const alone = row.withoutStreams ? rows.find((x) => x.name === row.withoutStreams) : undefined;
      if (alone && r.rps < 0.9 * alone.result.rps)
        notes.push(`${((1 - r.rps / alone.result.rps) * 100).toFixed(0)}% slower with the streams open`);
      for (const note of notes) missed.push(`${row.name}: ${note}`);
    }
    if (row.kind === 'reference' && row.plain && Math.abs(r.rps / row.plain.result.rps - 1) > 0.1) {
      notes.push(`${((r.rps / row.plain.result.rps - 1) * 100).toFixed(0)}% off a plain wrk run`);
      missed.push(`${row.name}: ${notes.at(-1)}`);
    }
    if (r.errors > 0) missed.push(`${row.name}: ${r.errors} error responses`);
    const verdict =
      target === undefined && row.kind === 'write'
        ? ''
        : notes.length
          ? `missed: ${notes.join(', ')}`
          : target === null
            ? 'p99 met; no req/s target (`--mix` holds it at 1.3× one instance on PostgreSQL)'
            : 'met';
    const routeRps = nextOf(row)?.result.rps ?? null;
    summaries.push({
      name: row.name,
      kind: row.kind,
      rps: r.rps,
      p99: r.p99,
      cpuUs: row.cpuUs,
      routeRps,
      ratio: routeRps ? r.rps / routeRps : null,
      verdict,
      errors: r.errors,
      costs: row.costs,
    });
    const inTurns = row.nextInTurns ? `${row.nextInTurns.result.rps.toFixed(0)} (${us(row.nextInTurns.cpuUs)})` : '';
    const plain = row.plain ? row.plain.result.rps.toFixed(0) : '';
    lines.push(
      `| ${row.name} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${us(row.cpuUs)} |${withDatabase ? ` ${row.dbCpuUs === null ? '' : us(row.dbCpuUs)} |` : ''} ${ratio(row, http)} | ${inTurns} | ${plain} | ${ratio(row, nextOf(row))} | ${r.errors} | ${verdict} |`,
    );
  }
  if (images.length > 0) {
    lines.push(
      '',
      '| Image (post preset) | bytes | pipeline ms | bare decode+resize ms | ratio | target ≤ 1.5× |',
      '|---|---:|---:|---:|---:|---|',
    );
    for (const image of images) {
      const met = image.ratio <= 1.5;
      if (!met) missed.push(`${image.name}: pipeline ${image.ratio.toFixed(2)}× the bare decode+resize`);
      lines.push(
        `| ${image.name} | ${(image.bytes / 1e6).toFixed(2)} MB | ${image.pipelineMs.toFixed(0)} | ${image.bareMs.toFixed(0)} | ${image.ratio.toFixed(2)}× | ${met ? 'met' : 'missed'} |`,
      );
    }
  }
  const rssMet = peakRss < rssTargetMb * 1024 * 1024;
  if (peakRss > 0 && !rssMet) missed.push(`server peak RSS ${mb(peakRss)} ≥ ${rssTargetMb} MB`);
  lines.push(
    '',
    `Server peak RSS during the run: ${mb(peakRss)} (target < ${rssTargetMb} MB: ${rssMet ? 'met' : 'missed'}).`,
  );
  const costed = rows.filter((row) => row.costs);
  if (costed.length > 0)
    lines.push(
      '',
      'A request of each app row costs (statements: each a round trip on PostgreSQL; Redis: every client, its INFO):',
      ...costed.map((row) => `- ${row.name}: ${describeCosts(row.costs!)}`),
    );
  lines.push('', missed.length ? `Missed targets:\n${missed.map((m) => `- ${m}`).join('\n')}` : 'Every target met.');
  return { text: lines.join('\n'), summaries, missed };
}

async function main(): Promise<void> {
  // --mix: each setting in a run of its own (this script again, with `--setting`), then their summary.
  if (mixOnly && !setting) return runSettings(process.argv.slice(2), flags);
  const machineText = machine();
  console.log(`Machine: ${machineText}`);
  if (flags.has('federation')) return runFederationBench();
  if (!haveWrk())
    throw new Error('wrk is not installed: `apt-get install -y wrk` (Debian/Ubuntu) or `brew install wrk`.');

  let images: ImageRow[] = [];
  // The settings' runs measure the images once, with the first (they do not touch the database).
  if (!flags.has('skip-images') && (setting === null || setting === 'sqlite')) {
    console.log('Image pipeline (post preset) vs bare decode+resize:');
    images = await runImageBench();
    for (const i of images)
      console.log(
        `  ${i.name}: pipeline ${i.pipelineMs.toFixed(0)} ms, bare ${i.bareMs.toFixed(0)} ms, ${i.ratio.toFixed(2)}×`,
      );
  }

  await ensureSeeded();
  const f = await fixtures();
  console.log(
    `Dataset: viewer ${f.viewer.username}, profile ${f.prolific}, hot post ${f.hot.id} (${f.hot.comments_count} comments), ` +
      `tags "${f.common.tag}" (${f.common.n} posts) and "${f.rare.tag}" (${f.rare.n})`,
  );

  const scriptDir = mkdtempSync(path.join(os.tmpdir(), 'posts-bench-'));
  const servers: Server[] = [];
  let stopApp = async () => {};
  const stopAll = () => Promise.all([stopApp(), ...servers.map(stopServer)]);
  process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));
  try {
    const nextDir = path.join(root, 'bench', 'next-reference');
    const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
    const nextBuilt = spawnSync(node, [
      '-e',
      `process.exit(require("fs").existsSync(${JSON.stringify(path.join(root, 'data', 'next-reference', 'BUILD_ID'))}) ? 0 : 1)`,
    ]);
    if (nextBuilt.status !== 0) {
      console.log('Building the Next.js reference app (once)...');
      const built = spawnSync(node, [nextBin, 'build', nextDir], { cwd: root, stdio: 'inherit' });
      if (built.status !== 0) throw new Error('next build of bench/next-reference failed');
    }
    const PORTS = { app: await freePort(), http: await freePort(), next: await freePort() };
    const profileDir = path.join(config.dataDir, 'profiles');
    if (flags.has('cpu-prof')) mkdirSync(profileDir, { recursive: true });
    const unlimited = '1000000000';
    // Rate limits are lifted: the load generator is one IP and one account doing what thousands of
    // users would.
    const nodeOptions = [
      ...(flags.has('cpu-prof') ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      // Experiments with V8/Node flags, e.g. --node-options="--max-semi-space-size=8".
      ...(flags.get('node-options')?.split(' ').filter(Boolean) ?? []),
    ];
    const appEnv = {
      NODE: node,
      NODE_OPTIONS: [process.env.NODE_OPTIONS ?? '', ...nodeOptions].join(' ').trim(),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_AUTH_PER_IP: unlimited,
      RATE_LIMIT_AUTH_PER_ACCOUNT: unlimited,
      RATE_LIMIT_WRITES_PER_USER: unlimited,
      // The notification streams' rows open 1,000 streams from this one address.
      SSE_STREAMS_PER_IP: unlimited,
      ...Object.fromEntries(
        (flags.get('env') ?? '')
          .split(',')
          .filter(Boolean)
          .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
      ),
    };
    const app = await (clusterSize > 0 ? startClusterApp : startSingleApp)(PORTS.app, appEnv);
    stopApp = app.stop;
    const httpReference = startServer(
      'node:http',
      node,
      [...tsxImport, path.join(root, 'bench', 'reference-http.ts')],
      { PORT: String(PORTS.http) },
      root,
    );
    const nextReference = startServer(
      'next',
      node,
      [nextBin, 'start', nextDir, '-p', String(PORTS.next), '-H', '127.0.0.1'],
      { NODE_ENV: 'production' },
      root,
    );
    servers.push(httpReference, nextReference);
    const base = (port: number) => `http://127.0.0.1:${port}`;
    const appUrl = app.url;
    await waitUntilUp(httpReference, base(PORTS.http));
    await waitUntilUp(nextReference, `${base(PORTS.next)}/api/hello`);
    // Which processes answer a row's URL: their CPU time is the row's cost.
    const answeredBy = (server: Server): Answering => ({ name: server.name, pids: [server.child.pid!] });
    const serverAt = new Map([
      ...app.answering,
      [base(PORTS.http), answeredBy(httpReference)],
      [base(PORTS.next), answeredBy(nextReference)],
    ]);
    const memory = watchMemory(app.memoryPid);
    const idle = memoryOf(app.memoryPid);
    if (idle)
      console.log(`Server RSS after start-up, idle: ${mb(idle.rss)} (anon ${mb(idle.anon)}, files ${mb(idle.file)})`);

    let cookie = await login(appUrl, f.viewer.email);
    const signedIn = () => ({ cookie });
    const json = () => ({ cookie, 'content-type': 'application/json' });

    const lists: { name: string; path: string }[] = [
      { name: 'home feed', path: '/api/posts?feed=following' },
      { name: 'everyone', path: '/api/posts?feed=all' },
      { name: `tag, common (${f.common.n} posts)`, path: `/api/posts/tagged?tags=${encodeURIComponent(f.common.tag)}` },
      { name: `tag, rare (${f.rare.n} posts)`, path: `/api/posts/tagged?tags=${encodeURIComponent(f.rare.tag)}` },
      { name: 'profile posts', path: `/api/users/${encodeURIComponent(f.prolific)}/posts` },
      { name: `post's comments (${f.hot.comments_count})`, path: `/api/posts/${f.hot.id}/comments` },
    ];
    type Plan = Pick<Row, 'name' | 'kind' | 'firstOf' | 'target' | 'targetLabel' | 'versus' | 'p99TargetMs'> & {
      url: string;
      /** Measured in turns with this row (as a deep page is with its first page). */
      groupWith?: string;
      request: () => LoadRequest;
      /** Before the row's group is measured (the community rows: their readers' sessions). */
      prepare?: () => Promise<void>;
    };
    const nextPlan: Plan = {
      name: 'reference: Next.js API route',
      kind: 'reference',
      url: base(PORTS.next),
      request: () => ({ paths: ['/api/hello'] }),
    };
    const plans: Plan[] = [
      {
        name: 'reference: node:http',
        kind: 'reference',
        url: base(PORTS.http),
        // wrk is its bottleneck: the held first request's per-request hook slows wrk, not the server.
        request: () => ({ paths: ['/'], holdFirst: false }),
      },
      nextPlan,
    ];
    // --mix: the community rows only (below).
    for (const list of mixOnly ? [] : lists) {
      plans.push({
        name: `${list.name}, first page`,
        kind: 'read',
        url: appUrl,
        request: () => ({ paths: [list.path], headers: signedIn() }),
      });
      const deep = (await pageCursors(appUrl, cookie, list.path)).at(-1);
      if (deep) {
        const sep = list.path.includes('?') ? '&' : '?';
        plans.push({
          name: `${list.name}, deep page (after ${deep.items})`,
          kind: 'read',
          firstOf: `${list.name}, first page`,
          url: appUrl,
          request: () => ({ paths: [`${list.path}${sep}cursor=${deep.cursor}`], headers: signedIn() }),
        });
      }
    }
    // Issue 33: the client API's timelines over the same lists, in turns with them, within 10%.
    if (!mixOnly) {
      const bearer = await clientApiToken(appUrl, cookie);
      for (const [name, apiPath, versus] of [
        ['client API home timeline, first page', '/api/v1/timelines/home', 'home feed, first page'],
        ['client API public local timeline, first page', '/api/v1/timelines/public?local=true', 'everyone, first page'],
      ])
        plans.push({
          name,
          kind: 'read',
          url: appUrl,
          target: CLIENT_API_TARGET,
          versus,
          groupWith: versus,
          // The same page size as the list it is held against.
          request: () => ({
            paths: [`${apiPath}${apiPath.includes('?') ? '&' : '?'}limit=${PAGE_LIMIT_DEFAULT}`],
            headers: { authorization: `Bearer ${bearer}` },
          }),
        });
    }
    // Issue 73: Explore, for the reader and for a visitor (its API is public; the page asks to sign in).
    if (!mixOnly)
      plans.push(
        {
          name: 'explore, signed in',
          kind: 'read',
          url: appUrl,
          request: () => ({ paths: ['/api/explore'], headers: signedIn() }),
        },
        { name: 'explore, signed out', kind: 'read', url: appUrl, request: () => ({ paths: ['/api/explore'] }) },
      );
    if (!mixOnly)
      plans.push(
        // The post page reads the post itself and its comments' first page (a list row above).
        {
          name: 'post with comments: the post',
          kind: 'read',
          url: appUrl,
          request: () => ({ paths: [`/api/posts/${f.hot.id}`], headers: signedIn() }),
        },
        {
          name: 'like toggle',
          kind: 'write',
          url: appUrl,
          request: () => ({
            method: 'PATCH',
            paths: f.writePosts.map((id) => `/api/posts/${id}/like`),
            headers: json(),
            body: '{}',
          }),
        },
        {
          name: 'comment add',
          kind: 'write',
          url: appUrl,
          request: () => ({
            method: 'POST',
            paths: f.writePosts.map((id) => `/api/posts/${id}/comments`),
            headers: json(),
            body: JSON.stringify({ message: 'Benchmark comment' }),
          }),
        },
        {
          name: 'login',
          kind: 'write',
          url: appUrl,
          request: () => ({
            method: 'POST',
            paths: ['/api/auth/login'],
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: f.viewer.email, password: SEED_PASSWORD }),
          }),
        },
      );

    // A community's traffic (issue 31, `community.ts`): the mix at each reader count and, with
    // --mix, each class alone with the first count.
    const live = {
      deepCursors: (await pageCursors(appUrl, cookie, '/api/posts?feed=all'))
        .filter((page) => page.items >= COMMUNITY_DEEP_FROM)
        .map((page) => page.cursor),
      writerImage: await uploadPicture(appUrl, await login(appUrl, f.community.writer), await writerPicture()),
    };
    const classes = communityClasses(f.community, live);
    const signIn = signedInReaders(appUrl, f.community);
    const communityPlan = (
      name: string,
      readers: number,
      entries: MixEntry[],
      kind: 'read' | 'write',
      target?: number | null,
    ): Plan => ({
      name,
      kind,
      target,
      p99TargetMs: COMMUNITY_P99_MS,
      url: appUrl,
      prepare: signIn.refresh,
      request: () => ({ paths: [entries[0].path], mix: { entries, ...signIn.cookies(readers) } }),
    });
    for (const readers of readerCounts) {
      const name = `community mix, ${readers} readers`;
      const entries = drawMix(classes, readers);
      if (clusterSize === 0) {
        plans.push(communityPlan(name, readers, entries, 'read', usedDatabase ? MIX_TARGET_POSTGRES : MIX_TARGET));
        continue;
      }
      // The cluster through its balancer, held at 1.3× one instance on PostgreSQL (both in multiples
      // of the route in their own turns), when that setting ran first.
      const postgres = postgresMix.get(readers);
      plans.push({
        ...communityPlan(`${name}, ${clusterSize} instances`, readers, entries, 'read', null),
        ...(postgres !== undefined && {
          target: CLUSTER_TARGET * postgres,
          targetLabel: `${CLUSTER_TARGET}× one instance on PostgreSQL (${postgres.toFixed(2)}× the route)`,
        }),
      });
    }
    if (mixOnly && clusterSize === 0)
      for (const c of classes)
        plans.push(
          communityPlan(
            `${c.name}, alone, ${readerCounts[0]} readers`,
            readerCounts[0],
            drawMix([c], 1),
            c.kind,
            c.kind === 'write' ? WRITE_CLASS_TARGET : c.name === PROFILE_CLASS ? PROFILE_CLASS_TARGET : undefined,
          ),
        );

    console.log(`Load: ${connections} connections, ${seconds} s per row:`);
    const rows: Row[] = [];
    const warmedUp = new Set<Answering>();
    const selected = plans.filter((plan) => !only || plan.kind === 'reference' || only.test(plan.name));
    const measurand = (plan: Plan, name = plan.name, plain = false): Measurand => ({
      name,
      request: plan.request(),
      url: plan.url,
      server: serverAt.get(plan.url)!,
      readsDatabase: app.answering.has(plan.url),
      plain,
    });
    // The Next.js route twice in a read row's turns: as the bench loads it, and by a plain `wrk -t1`.
    const nextPair = (name: string) => [measurand(nextPlan, name), measurand(nextPlan, `${name}, plain wrk`, true)];
    for (const plan of selected) {
      // A deep page is measured in turns with its first page, when both are selected.
      const leader = plan.firstOf ?? plan.groupWith;
      if (leader && selected.some((other) => other.name === leader)) continue;
      const group = [plan, ...selected.filter((other) => (other.firstOf ?? other.groupWith) === plan.name)];
      // A fresh session per group: access tokens live 15 minutes, a full run is longer.
      if (plan.url === appUrl) cookie = await login(appUrl, f.viewer.email);
      await plan.prepare?.();
      // A read row's target is the Next.js route's req/s: measured in the same turns, so both
      // figures come from the same minute of this shared machine. A reference is checked against
      // a plain wrk run of itself in the same turns.
      const paired =
        plan.kind === 'read' || plan.target !== undefined
          ? nextPair(`${plan.name} · Next.js route`)
          : plan.kind === 'reference'
            ? [measurand(plan, `${plan.name}, plain wrk`, true)]
            : [];
      const measured = await measure([...group.map((p) => measurand(p)), ...paired], scriptDir, warmedUp);
      const nextInTurns = paired.length > 1 ? measured[group.length] : undefined;
      const plain = paired.length > 0 ? measured[measured.length - 1] : undefined;
      group.forEach((p, index) =>
        rows.push({
          name: p.name,
          kind: p.kind,
          firstOf: p.firstOf,
          target: p.target,
          targetLabel: p.targetLabel,
          versus: p.versus,
          p99TargetMs: p.p99TargetMs,
          ...measured[index],
          nextInTurns,
          plain,
        }),
      );
      // Which row makes the server grow: its RSS right after each row.
      const now = memoryOf(app.memoryPid);
      if (now && plan.url === appUrl)
        console.log(
          `  ${''.padEnd(34)} server RSS ${mb(now.rss)} (anon ${mb(now.anon)}, files ${mb(now.file)}), peak so far ${mb(now.peak)}`,
        );
    }
    // Issue 21: the feed rows again, with streams held open on the same instance, each held against
    // the same rows measured just before the streams open (the write rows have changed the server since
    // the rows above: its heap, its caches, the dataset).
    const feedPlans = selected.filter((plan) => FEED_ROW.test(plan.name) && !plan.firstOf);
    const feedRowsAgain = async (suffix: string, withoutStreams?: string) => {
      for (const plan of feedPlans) {
        const group = [plan, ...selected.filter((other) => other.firstOf === plan.name)];
        const named = (p: Plan) => `${p.name} · ${suffix}`;
        cookie = await login(appUrl, f.viewer.email);
        const paired = nextPair(`${named(plan)} · Next.js route`);
        const measured = await measure([...group.map((p) => measurand(p, named(p))), ...paired], scriptDir, warmedUp);
        group.forEach((p, index) =>
          rows.push({
            name: named(p),
            kind: p.kind,
            firstOf: p.firstOf && named({ ...p, name: p.firstOf }),
            withoutStreams: withoutStreams && `${p.name} · ${withoutStreams}`,
            ...measured[index],
            nextInTurns: measured[group.length],
            plain: measured[group.length + 1],
          }),
        );
      }
    };
    if (streamCount > 0 && feedPlans.length > 0) {
      await feedRowsAgain('before the streams');
      const cookies: string[] = [];
      for (const email of f.streamEmails) cookies.push(await login(appUrl, email));
      const streams = await openStreams(appUrl, cookies, streamCount);
      const held = memoryOf(app.memoryPid);
      console.log(
        `With ${streams.open()} notification streams open${held ? `: server RSS ${mb(held.rss)} (anon ${mb(held.anon)})` : ''}`,
      );
      try {
        await feedRowsAgain(`${streamCount} streams`, 'before the streams');
        if (streams.open() < streamCount)
          throw new Error(`${streamCount - streams.open()} streams ended during the rows`);
        const now = memoryOf(app.memoryPid);
        if (now)
          console.log(
            `  ${''.padEnd(34)} server RSS ${mb(now.rss)} (anon ${mb(now.anon)}), peak so far ${mb(now.peak)}; ${streams.bytes()} bytes sent on the streams`,
          );
      } finally {
        streams.close();
      }
    }
    const peakRss = memory.peak();
    memory.stop();
    const rssTargetMb = !mixOnly
      ? RSS_TARGET_MB.rows
      : Math.max(...readerCounts) >= 2000
        ? RSS_TARGET_MB.mixWith2000Readers
        : RSS_TARGET_MB.mix;
    const { text, summaries, missed } = report(rows, images, peakRss, rssTargetMb, machineText);
    console.log(`\n${text}`);
    if (resultsJson)
      writeFileSync(
        resultsJson,
        JSON.stringify({
          rows: summaries,
          peakRssMb: peakRss / 1024 / 1024,
          rssTargetMb,
          missed,
        } satisfies SettingResults),
      );
    const out = path.join(config.dataDir, 'bench-results.md');
    writeFileSync(out, `${new Date().toISOString()}\n\n${text}\n`);
    console.log(`\n(also written to ${path.relative(root, out)})`);
  } finally {
    await stopAll();
    redisClient?.disconnect();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
