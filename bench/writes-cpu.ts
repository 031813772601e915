/**
 * Server CPU per write (issue 31), measured in-process: the app built as `npm start` builds it (no
 * Next.js), on a copy of D1, each write class sent with `app.inject` and timed with
 * `process.cpuUsage()` (every thread: the checkpoint worker counts). A busy shared machine moves
 * wall time, hardly CPU time. `--profile` also writes a CPU profile per class and prints where it goes.
 * `--concurrent N`: N requests at a time, so SQLite writes commit in groups as under `wrk` (`db/steps.ts`).
 *   DATA_DIR=<copy of D1> tsx bench/writes-cpu.ts [--count 2000] [--warmup 300] [--profile] [--only like]
 */
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Rng, Zipf } from '../scripts/seed/random';
import { communityData } from './community';
import { startProfile } from './cpuProfile';
import { flag, inProcessApp, signedInCookie, threadCpu, uploadedWriterImage } from './inProcessApp';
import { statementTimes } from './statementTimes';

const COUNT = Number(flag('count', '2000'));
const WARMUP = Number(flag('warmup', '300'));
const PROFILE = process.argv.includes('--profile');
const ONLY = flag('only', '');
const STATEMENTS = process.argv.includes('--statements');
const CONCURRENT = Number(flag('concurrent', '1'));

if (STATEMENTS) statementTimes.start();
const READERS = 20;

const { config, db, storage, app } = await inProcessApp();

const data = await communityData(db.kysely, READERS);
const login = (email: string) => signedInCookie(app, email);
const readers = await Promise.all(data.readers.map(login));
const writer = await login(data.writer);

const writerImage = await uploadedWriterImage(app, writer);

const rng = new Rng(31);
const recentZipf = new Zipf(data.recent.length, 1);
const tagZipf = new Zipf(data.tags.length, 1);
const recentPost = () => data.recent[recentZipf.sample(rng)];

interface Request {
  method: 'PATCH' | 'POST' | 'GET';
  url: string;
  payload?: string;
  cookie: string;
}
const classes: { name: string; draw: () => Request }[] = [
  {
    name: 'like',
    draw: () => ({ method: 'PATCH', url: `/api/posts/${recentPost()}/like`, payload: '{}', cookie: rng.pick(readers) }),
  },
  {
    name: 'comment',
    draw: () => ({
      method: 'POST',
      url: `/api/posts/${recentPost()}/comments`,
      payload: JSON.stringify({ message: 'A comment from the community bench' }),
      cookie: rng.pick(readers),
    }),
  },
  {
    name: 'post',
    draw: () => ({
      method: 'POST',
      url: '/api/posts/create',
      payload: JSON.stringify({
        message: 'A post from the community bench',
        image: writerImage,
        tags: [data.tags[tagZipf.sample(rng)]],
      }),
      cookie: writer,
    }),
  },
  // What inject and Fastify alone cost: a signed-in read answered from memory.
  {
    name: 'baseline (GET /api/auth/getLoggedUser)',
    draw: () => ({ method: 'GET', url: '/api/auth/getLoggedUser', cookie: rng.pick(readers) }),
  },
];

/** `--probes`: thread CPU between marks the code under study calls (`globalThis.__probe?.(label)`). */
const probeTimes = new Map<string, number>();
let probeAt = 0;
if (process.argv.includes('--probes'))
  (globalThis as { __probe?: (label: string) => void }).__probe = (label) => {
    const now = threadCpu();
    probeTimes.set(label, (probeTimes.get(label) ?? 0) + now - probeAt);
    probeAt = now;
  };
const probe = (label: string) => (globalThis as { __probe?: (label: string) => void }).__probe?.(label);

/**
 * Under `perf stat --control fifo:<ctl>,<ack> -D -1` (PERF_CTL, PERF_ACK): counting only while a
 * class runs, so instructions per request can be read on a busy machine, where time is unreliable.
 */
function perfControl(command: 'enable' | 'disable') {
  if (!process.env.PERF_CTL || !process.env.PERF_ACK) return;
  writeFileSync(process.env.PERF_CTL, `${command}\n`);
  const ack = openSync(process.env.PERF_ACK, 'r');
  readSync(ack, Buffer.alloc(5)); // "ack\n": perf keeps the fifo open, so no end to read to
  closeSync(ack);
}

async function send(r: Request) {
  probeAt = threadCpu();
  const res = await app.inject({
    method: r.method,
    url: r.url,
    payload: r.payload,
    headers: { cookie: r.cookie, ...(r.payload ? { 'content-type': 'application/json' } : {}) },
  });
  probe('(end: answer sent, inject returned)');
  if (res.statusCode >= 300) throw new Error(`${r.method} ${r.url}: ${res.statusCode} ${res.body}`);
}

for (const c of classes) {
  if (ONLY && !c.name.startsWith(ONLY)) continue;
  statementTimes.label = 'warm-up';
  for (let i = 0; i < WARMUP; i++) await send(c.draw());
  statementTimes.label = c.name;
  const requests = Array.from({ length: COUNT }, c.draw);
  const stopProfile = PROFILE ? await startProfile() : null;
  probeTimes.clear();
  perfControl('enable');
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let i = 0; i < requests.length; i += CONCURRENT) await Promise.all(requests.slice(i, i + CONCURRENT).map(send));
  const used = process.cpuUsage(cpu);
  perfControl('disable');
  const elapsed = performance.now() - wall;
  console.log(
    `${c.name}: ${((used.user + used.system) / COUNT).toFixed(0)} µs CPU/request ` +
      `(user ${(used.user / COUNT).toFixed(0)}, system ${(used.system / COUNT).toFixed(0)}), ` +
      `${((elapsed * 1000) / COUNT).toFixed(0)} µs wall/request, ${COUNT} requests`,
  );
  for (const [label, us] of probeTimes) console.log(`  probe ${(us / COUNT).toFixed(1).padStart(7)} µs  ${label}`);
  if (STATEMENTS) {
    statementTimes.print(c.name, COUNT, Infinity);
  }
  await stopProfile?.(path.join(config.dataDir, `writes-${c.name.split(' ')[0]}.cpuprofile`), COUNT);
}

await app.close();
storage.close?.();
await db.close().catch(() => {});
process.exit(0);
