/**
 * Server CPU of a signed-in read answered from memory (issue 31, the request's floor), in-process:
 * the app built as `npm start` builds it (no Next.js), on a copy of D1, each read route sent with
 * `app.inject` by signed-in readers and timed by the main thread's CPU (`threadCpuUsage`). What is left once the
 * lists come from memory is the way through Fastify's hooks, the session and the answer's
 * serialization; inject stands in for the socket (its own cost is in every figure alike).
 *   DATA_DIR=<copy of D1> tsx bench/requestFloor.ts [--count 3000] [--warmup 500] [--rounds 3]
 *     [--only <route name prefix>] [--readers 20] [--profile] [--viewer]
 * `--viewer`: every request by `npm run bench`'s one viewer (the first user, who blocks and mutes
 * 50 of the most prolific posters), as the single-page rows read, instead of random readers.
 */
import path from 'node:path';
import v8 from 'node:v8';
import { Rng, Zipf } from '../scripts/seed/random';
import { benchViewer, communityData } from './community';
import { startProfile } from './cpuProfile';
import { flag, inProcessApp, signedInCookie, threadCpu } from './inProcessApp';
import { median } from './median';

const COUNT = Number(flag('count', '3000'));
const WARMUP = Number(flag('warmup', '500'));
const ROUNDS = Number(flag('rounds', '3'));
const ONLY = flag('only', '');
const PROFILE = process.argv.includes('--profile');
const READERS = Number(flag('readers', '20'));
const VIEWER = process.argv.includes('--viewer');

const { config, db, storage, app } = await inProcessApp();

const data = await communityData(db.kysely, READERS);
const login = (email: string) => signedInCookie(app, email);
const readers = VIEWER
  ? [await login((await benchViewer(db.kysely)).email)]
  : await Promise.all(data.readers.map(login));

const rng = new Rng(31);
const recentZipf = new Zipf(data.recent.length, 1);
const tagZipf = new Zipf(data.tags.length, 1);
const recentPost = () => data.recent[recentZipf.sample(rng)];

/** The mix's read classes (bench/community.ts), and the smallest signed-in read. */
const routes: { name: string; url: () => string }[] = [
  { name: 'getLoggedUser', url: () => '/api/auth/getLoggedUser' },
  { name: 'home feed', url: () => '/api/posts?feed=following' },
  { name: 'everyone', url: () => '/api/posts?feed=all' },
  { name: 'tag', url: () => `/api/posts/tagged?tags=${encodeURIComponent(data.tags[tagZipf.sample(rng)])}` },
  { name: "profile's posts", url: () => `/api/users/${encodeURIComponent(rng.pick(data.creators))}/posts` },
  { name: 'recent post', url: () => `/api/posts/${recentPost()}` },
  { name: "post's comments", url: () => `/api/posts/${recentPost()}/comments` },
  { name: 'profile', url: () => `/api/users/${encodeURIComponent(rng.pick(data.creators))}` },
  { name: 'explore', url: () => '/api/explore' },
];

/** The bytes allocated from now until the returned function is called: the heap's growth plus what each collection freed. */
function allocationSince(): () => number {
  const profiler = new v8.GCProfiler();
  const startUsed = v8.getHeapStatistics().used_heap_size;
  profiler.start();
  return () => {
    const collections = profiler.stop()?.statistics ?? [];
    let total = 0;
    let from = startUsed;
    for (const gc of collections) {
      total += gc.beforeGC.heapStatistics.usedHeapSize - from;
      from = gc.afterGC.heapStatistics.usedHeapSize;
    }
    return total + v8.getHeapStatistics().used_heap_size - from;
  };
}

async function send(url: string, cookie: string) {
  const res = await app.inject({ method: 'GET', url, headers: { cookie, host: 'localhost:3000' } });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
}

const chosen = routes.filter((r) => !ONLY || r.name.startsWith(ONLY));
const results = new Map<string, number[]>();
/** Bytes allocated a request: what the garbage collector's threads work through, beside the main thread's figure. */
const allocated = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const r of chosen) {
    const requests = Array.from({ length: WARMUP + COUNT }, () => ({ url: r.url(), cookie: rng.pick(readers) }));
    for (const q of requests.slice(0, WARMUP)) await send(q.url, q.cookie);
    const stopProfile = PROFILE && round === ROUNDS - 1 ? await startProfile() : null;
    const allocation = allocationSince();
    const cpu = threadCpu();
    for (const q of requests.slice(WARMUP)) await send(q.url, q.cookie);
    const us = (threadCpu() - cpu) / COUNT;
    results.set(r.name, [...(results.get(r.name) ?? []), us]);
    allocated.set(r.name, [...(allocated.get(r.name) ?? []), allocation() / COUNT]);
    await stopProfile?.(path.join(config.dataDir, `floor-${r.name.replace(/\W+/g, '-')}.cpuprofile`), COUNT);
  }
}
console.log(`µs of the main thread's CPU per request (${COUNT} requests a round, ${ROUNDS} rounds; min · median):`);
for (const [name, figures] of results) {
  console.log(
    `  ${name.padEnd(18)} ${Math.min(...figures)
      .toFixed(0)
      .padStart(5)} · ${median(figures).toFixed(0).padStart(5)}   (${figures.map((f) => f.toFixed(0)).join(', ')})` +
      `   ${(median(allocated.get(name)!) / 1024).toFixed(1)} kB allocated a request`,
  );
}

await app.close();
storage.close?.();
await db.close().catch(() => {});
process.exit(0);
