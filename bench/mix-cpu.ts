/**
 * The community's mix (issue 31) in-process: the same classes and shares as `npm run bench -- --mix`
 * (`community.ts`), sent one at a time with `app.inject` by random signed-in readers, so each
 * request's CPU (this thread's) is its own. Each class is timed inside the mix and alone: the
 * difference is what the writes among the reads cost the reads (caches emptied, lists re-read).
 * A request's window ends when `inject` has its answer; `--together` times the whole mix instead
 * (what runs after the answers too), `--concurrency N` with N requests in flight.
 * After the mix, each cache's hits, misses and evictions during it (`app.ctx.caches`, as `/metrics`).
 * `--ab "<SQL A>|<SQL B>"` compares two settings of SQLite's connection (pragmas) in one process:
 * rounds of the mix under A then B, so that the machine's drift from one run to the next weighs
 * on both alike (docs/benchmarks/log/2026-11-27.md, "What did not make the writes or the mix cheaper").
 *   DATA_DIR=<a copy of D1> tsx bench/mix-cpu.ts [--readers 200] [--count 20000] [--warmup 3000] [--alone 2000]
 *     [--together | --concurrency 50] [--profile] [--statements] [--only <regex of class names>]
 *     [--ab "PRAGMA mmap_size = 0|PRAGMA mmap_size = 4000000000" [--rounds 8] [--block 2000]]
 */
import path from 'node:path';
import { nextLink } from '../lib/links';
import { Rng } from '../scripts/seed/random';
import { type CommunityClass, communityClasses, communityData } from './community';
import { startProfile } from './cpuProfile';
import { flag, inProcessApp, signedInCookie, threadCpu, uploadedWriterImage } from './inProcessApp';
import { median } from './median';
import { statementTimes } from './statementTimes';
import type { MixEntry } from './wrk';

const READERS = Number(flag('readers', '200'));
const COUNT = Number(flag('count', '20000'));
const WARMUP = Number(flag('warmup', '3000'));
const ALONE = Number(flag('alone', '2000'));
/** Requests in flight at once (as wrk's connections); above 1 only the mix's total is timed. */
const CONCURRENCY = Number(flag('concurrency', '1'));
const PROFILE = process.argv.includes('--profile');
/** `--ab`: two settings of the connection, each round's `BLOCK` requests under one then the other. */
const AB = flag('ab', '');
const ROUNDS = Number(flag('rounds', '8'));
const BLOCK = Number(flag('block', '2000'));
const STATEMENTS = process.argv.includes('--statements');
if (STATEMENTS) statementTimes.start();
/** Everyone's list's deep pages start after this many posts, as in the bench. */
const DEEP_FROM = 1200;

const { config, db, storage, app } = await inProcessApp();
const data = await communityData(db.kysely, READERS);
const readers: string[] = [];
// Four at a time: each sign-in is an argon2 hash.
for (let i = 0; i < data.readers.length; i += 4)
  readers.push(...(await Promise.all(data.readers.slice(i, i + 4).map((email) => signedInCookie(app, email)))));
const writer = await signedInCookie(app, data.writer);

async function deepCursors(): Promise<string[]> {
  const cursors: string[] = [];
  let next: string | null = '/api/posts?feed=all&limit=40';
  for (let items = 0; next && items < DEEP_FROM + 400;) {
    const res = await app.inject({ url: next, headers: { cookie: readers[0] } });
    items += (res.json() as unknown[]).length;
    next = nextLink(String(res.headers.link ?? ''));
    const cursor = next && new URL(next, 'http://x').searchParams.get('cursor');
    if (cursor && items >= DEEP_FROM) cursors.push(cursor);
  }
  return cursors;
}

const ONLY = flag('only', '');
const classes = communityClasses(data, {
  deepCursors: await deepCursors(),
  writerImage: await uploadedWriterImage(app, writer),
}).filter((c) => new RegExp(ONLY).test(c.name));
const rng = new Rng(31);

/** One class drawn by its share, as `drawMix` draws. */
function drawClass(from: CommunityClass[]): CommunityClass {
  const total = from.reduce((sum, c) => sum + c.share, 0);
  let point = rng.next() * total;
  return from.find((c) => (point -= c.share) < 0) ?? from[from.length - 1];
}

async function send(entry: MixEntry): Promise<number> {
  const cookie = entry.writer ? writer : rng.pick(readers);
  const before = threadCpu();
  const res = await app.inject({
    method: entry.method,
    url: entry.path,
    payload: entry.body,
    headers: { cookie, host: 'localhost:3000', ...(entry.body ? { 'content-type': 'application/json' } : {}) },
  });
  const used = threadCpu() - before;
  if (res.statusCode >= 300) throw new Error(`${entry.method} ${entry.path}: ${res.statusCode} ${res.body}`);
  return used;
}

/** Runs `work` under the CPU profiler with `--profile`: the profile is written, and summarised per request. */
async function profiled<T>(name: string, requests: number, work: () => Promise<T>): Promise<T> {
  if (!PROFILE) return work();
  const stop = await startProfile();
  const result = await work();
  await stop(path.join(config.dataDir, `mix-cpu-${name}.cpuprofile`), requests);
  return result;
}

/** `count` requests drawn from `from`; CPU µs per request, by class. */
async function run(from: CommunityClass[], count: number) {
  const byClass = new Map<string, { n: number; us: number }>();
  for (let i = 0; i < count; i++) {
    const picked = drawClass(from);
    statementTimes.label = `${from.length > 1 ? 'mix' : 'alone'}: ${picked.name}`;
    const us = await send(picked.draw(rng));
    const entry = byClass.get(picked.name) ?? { n: 0, us: 0 };
    entry.n += 1;
    entry.us += us;
    byClass.set(picked.name, entry);
  }
  return byClass;
}

/** `count` requests drawn from `from`, `CONCURRENCY` at a time: this thread's CPU µs per request. */
async function runTogether(from: CommunityClass[], count: number): Promise<number> {
  const entries = Array.from({ length: count }, () => drawClass(from).draw(rng));
  const before = threadCpu();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < entries.length) await send(entries[next++]);
    }),
  );
  return (threadCpu() - before) / count;
}

if (CONCURRENCY > 1 || process.argv.includes('--together')) {
  await runTogether(classes, WARMUP);
  const us = await profiled('together', COUNT, () => runTogether(classes, COUNT));
  console.log(
    `The mix, ${READERS} readers, ${COUNT} requests, ${CONCURRENCY} at a time: ${us.toFixed(0)} µs a request`,
  );
  process.exit(0);
}
/** Each cache's counts now: what the mix did to them is the difference. */
function cacheFigures() {
  return [...app.ctx.caches.caches].map(([name, cache]) => ({ name, cache, ...cache.counts }));
}
function printCaches(before: ReturnType<typeof cacheFigures>) {
  console.log('cache                 hits   misses  evictions   size   (during the mix)');
  for (const { name, cache, hits, misses, evictions } of before)
    console.log(
      `  ${name.padEnd(24)} ${String(cache.counts.hits - hits).padStart(7)} ${String(cache.counts.misses - misses).padStart(7)} ${String(cache.counts.evictions - evictions).padStart(9)} ${String(cache.size()).padStart(7)}`,
    );
}

/** µs of this thread's CPU a request over a run's classes. */
function perRequest(byClass: Map<string, { n: number; us: number }>): number {
  const all = [...byClass.values()];
  return all.reduce((sum, c) => sum + c.us, 0) / all.reduce((sum, c) => sum + c.n, 0);
}

if (AB) {
  const settings = AB.split('|');
  if (settings.length !== 2 || !db.now) throw new Error('--ab wants "<SQL A>|<SQL B>", on SQLite');
  await run(classes, WARMUP);
  const figures: number[][] = [[], []];
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, setting] of settings.entries()) {
      db.now.query(setting, []);
      await run(classes, BLOCK / 4); // the cache settles to the setting unmeasured
      figures[i].push(perRequest(await run(classes, BLOCK)));
    }
  for (const [i, setting] of settings.entries())
    console.log(
      `${'AB'[i]} ${setting}: ${figures[i].map((us) => us.toFixed(0)).join(' ')} µs a request, median ${median(figures[i]).toFixed(0)}`,
    );
  const bCheaper = figures[1].filter((us, round) => us < figures[0][round]).length;
  console.log(`B was the cheaper in ${bCheaper} of ${ROUNDS} rounds`);
  process.exit(0);
}

await run(classes, WARMUP);
const cachesBefore = cacheFigures();
const mix = await profiled('mix', COUNT, () => run(classes, COUNT));
printCaches(cachesBefore);
const total = [...mix.values()].reduce((sum, c) => sum + c.us, 0);
console.log(
  `The mix, ${READERS} readers, ${COUNT} requests: ${perRequest(mix).toFixed(0)} µs of this thread's CPU a request`,
);
console.log('class                                      in the mix   alone   share of the mix CPU');
let weighted = 0;
for (const c of classes) {
  const inMix = mix.get(c.name);
  const alone = (await run([c], ALONE)).get(c.name)!;
  const aloneUs = alone.us / alone.n;
  weighted += (c.share / 100) * aloneUs;
  console.log(
    `  ${c.name.padEnd(40)} ${inMix ? (inMix.us / inMix.n).toFixed(0).padStart(7) : '      –'} ${aloneUs.toFixed(0).padStart(7)}   ${inMix ? ((100 * inMix.us) / total).toFixed(1).padStart(5) : '    –'}%`,
  );
}
if (STATEMENTS)
  for (const c of classes)
    for (const where of ['mix', 'alone']) {
      console.log(`  statements, ${where}: ${c.name}`);
      statementTimes.print(`${where}: ${c.name}`, where === 'mix' ? (mix.get(c.name)?.n ?? 1) : ALONE);
    }
console.log(`The classes alone, weighted by their shares: ${weighted.toFixed(0)} µs a request`);

await app.close();
storage.close?.();
await db.close().catch(() => {});
process.exit(0);
