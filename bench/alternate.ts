/**
 * One read class of the community's mix (issue 31) on two checkouts' production servers at once, in
 * alternating turns: e.g. the code before a change (`--a`) against the code after it (`--b`), each
 * on its own copy of one seed. A whole `npm run bench` on each, back to back, spreads by ±6% a row on
 * a shared machine; turns of a few seconds put the machine's drift on both sides alike. Each turn:
 * 1 s unmeasured, then wrk for `--seconds`; the server's CPU per request from /proc. Then the same
 * with `--streams` notification streams open on each server (issue 21; 0: none).
 *   tsx bench/alternate.ts --a <checkout>:<DATA_DIR> --b <checkout>:<DATA_DIR>
 *     [--class "home feed, first page" | mix] [--readers 200] [--rounds 8] [--seconds 5] [--streams 1000]
 *     [--warmup 10] (seconds of load on each server before the first turn)
 * Seed one DATA_DIR with the older checkout and copy it for each side: the newer one migrates its own.
 * `--class mix`: the whole community mix (its writes too) as `npm run bench -- --mix` draws it, each
 * side with its own deep cursors and writer's picture: e.g. one checkout on two seeds (issue 71).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, parseFlags } from '../scripts/seed/args';
import { openDatabase } from '../server/db/database';
import { freePort } from '../tests/server/remoteServer';
import { COMMUNITY_DEEP_FROM, login, loginAll, pageCursors, uploadPicture, waitForFeedIndex } from './appUnderTest';
import {
  type CommunityData,
  type CommunityLive,
  benchViewer,
  communityClasses,
  communityData,
  drawMix,
  writerPicture,
} from './community';
import { median } from './median';
import { cpuSecondsOf, startServer, stopServer, waitUntilUp } from './processes';
import { type OpenStreams, openStreams } from './streams';
import { type MixEntry, runWrk } from './wrk';

const flags = parseFlags(process.argv.slice(2));
const className = flags.get('class') ?? 'home feed, first page';
const readerCount = count(flags, 'readers', 200);
const rounds = count(flags, 'rounds', 8);
const seconds = count(flags, 'seconds', 5);
const streamCount = count(flags, 'streams', 1000);
const warmup = count(flags, 'warmup', 10);
/** As `run.ts`: 50 connections from one wrk thread; the streams spread over the first 50 users. */
const CONNECTIONS = 50;
const STREAM_USERS = 50;
const unlimited = '1000000000';

const sides = (['a', 'b'] as const).map((name) => {
  const [checkout, dataDir] = flags.get(name)?.split(':') ?? [];
  if (!checkout || !dataDir) throw new Error(`--${name} takes <checkout>:<DATA_DIR>`);
  return { name, root: path.resolve(checkout), dataDir: path.resolve(dataDir) };
});

// The readers and posts as `npm run bench` picks them, after its viewer's blocks and mutes: each side's
// own (two seeds share their accounts, not their posts' ids).
const communities = new Map<string, CommunityData>();
let streamEmails: string[] = [];
for (const side of sides) {
  const db = openDatabase(`sqlite:${path.join(side.dataDir, 'posts.db')}`);
  const k = db.kysely;
  await benchViewer(k);
  communities.set(side.name, await communityData(k, readerCount));
  if (streamEmails.length === 0)
    streamEmails = (await k.selectFrom('users').select('email').orderBy('id').limit(STREAM_USERS).execute()).map(
      (u) => u.email,
    );
  await db.close();
}
/** The mix: every class; else one read class without cursors (a deep page's and a write's need `live`). */
const MIX = 'mix';
const classesOf = (community: CommunityData, live: CommunityLive) => {
  const classes = communityClasses(community, live);
  if (className === MIX) return classes;
  const chosen = classes.find((c) => c.name === className);
  if (!chosen || chosen.kind !== 'read' || chosen.name.includes('deep'))
    throw new Error(
      `--class takes "${MIX}" or a read class of bench/community.ts without a cursor, not "${className}"`,
    );
  return [chosen];
};
classesOf(communities.get('a')!, { deepCursors: [], writerImage: '' });
/** What the mix needs of each side: its deep pages' cursors and a picture its writer uploaded. */
async function liveOf(url: string, writer: string): Promise<CommunityLive> {
  if (className !== MIX) return { deepCursors: [], writerImage: '' };
  return {
    deepCursors: (await pageCursors(url, writer, '/api/posts?feed=all'))
      .filter((page) => page.items >= COMMUNITY_DEEP_FROM)
      .map((page) => page.cursor),
    writerImage: await uploadPicture(url, writer, await writerPicture()),
  };
}
const scriptDir = mkdtempSync(path.join(os.tmpdir(), 'posts-alternate-'));

const apps: {
  name: string;
  url: string;
  pid: number;
  readers: string[];
  writer: string;
  entries: MixEntry[];
  stop: () => Promise<void>;
  streams?: OpenStreams;
}[] = [];
try {
  for (const side of sides) {
    const port = await freePort();
    const server = startServer(
      side.name,
      'sh',
      [path.join(side.root, 'scripts', 'start.sh')],
      {
        ...{ NODE: process.execPath, DATA_DIR: side.dataDir, PORT: String(port), NODE_ENV: 'production' },
        ...{ LOG_LEVEL: 'warn', RATE_LIMIT_AUTH_PER_IP: unlimited, RATE_LIMIT_AUTH_PER_ACCOUNT: unlimited },
        ...{ RATE_LIMIT_WRITES_PER_USER: unlimited, SSE_STREAMS_PER_IP: unlimited },
        // The work a request costs, not the load shedding's 503s on a busy machine.
        MAX_EVENT_LOOP_DELAY_MS: '0',
      },
      side.root,
    );
    const url = `http://127.0.0.1:${port}`;
    await waitUntilUp(server, `${url}/api/instance`);
    await waitForFeedIndex(url);
    const community = communities.get(side.name)!;
    const readers = await loginAll(url, community.readers);
    const writer = await login(url, community.writer);
    const entries = drawMix(classesOf(community, await liveOf(url, writer)), readerCount);
    apps.push({
      name: side.name,
      url,
      pid: server.child.pid!,
      readers,
      writer,
      entries,
      stop: () => stopServer(server),
    });
    console.log(`${side.name}: ${side.root} on ${url}, ${readers.length} readers signed in`);
  }
  const load = (app: (typeof apps)[number], secs: number) =>
    runWrk(
      {
        paths: [app.entries[0].path],
        mix: { entries: app.entries, readerCookies: app.readers, writerCookie: app.writer },
      },
      { baseUrl: app.url, connections: CONNECTIONS, threads: 1, seconds: secs, scriptDir },
      `${app.name}-${className}`,
    );
  // A fresh process compiles its hot code first (run.ts's server warm-up).
  for (const app of apps) await load(app, warmup);

  const lines: string[] = [];
  for (const phase of streamCount > 0 ? ['alone', `${streamCount} streams`] : ['alone']) {
    if (phase !== 'alone')
      for (const app of apps) {
        app.streams = await openStreams(app.url, await loginAll(app.url, streamEmails), streamCount);
        await load(app, 3);
      }
    const cpuUs = new Map(apps.map((app) => [app.name, [] as number[]]));
    for (let round = 0; round < rounds; round++) {
      // a then b, then b then a: neither side always follows the other.
      for (const app of round % 2 === 0 ? apps : [...apps].reverse()) {
        await load(app, 1);
        const before = cpuSecondsOf(app.pid);
        const result = await load(app, seconds);
        const after = cpuSecondsOf(app.pid);
        if (before === null || after === null) throw new Error(`The CPU time of ${app.name} is unreadable`);
        if (result.errors > 0) throw new Error(`${app.name}: ${result.errors} errors in a turn`);
        if (app.streams && app.streams.open() < streamCount) throw new Error(`${app.name}: streams ended`);
        const us = ((after - before) / result.requests) * 1e6;
        cpuUs.get(app.name)!.push(us);
        console.log(
          `${phase}, round ${round + 1}, ${app.name}: ${result.rps.toFixed(0)} req/s, ${us.toFixed(1)} µs/req`,
        );
      }
    }
    const [a, b] = apps.map((app) => cpuUs.get(app.name)!);
    const ratios = a.map((us, i) => b[i] / us);
    lines.push(
      `| ${className}, ${phase} | ${median(a).toFixed(1)} | ${median(b).toFixed(1)} | ` +
        `${((median(ratios) - 1) * 100).toFixed(1)}% | ${a.map((us) => us.toFixed(0)).join(' ')} | ${b.map((us) => us.toFixed(0)).join(' ')} |`,
    );
  }
  console.log(
    `\n${rounds} turns of ${seconds} s each, ${readerCount} readers, ${CONNECTIONS} connections; server CPU µs a request.\n`,
  );
  console.log('| Row | a: median | b: median | b ÷ a − 1, median of the turns | a: each turn | b: each turn |');
  console.log('|---|---:|---:|---:|---|---|');
  for (const line of lines) console.log(line);
} finally {
  for (const app of apps) {
    app.streams?.close();
    await app.stop();
  }
}
