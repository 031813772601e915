/**
 * A list's deep page against its first page, in-process (issue 68, item 26): the single-page
 * bench's viewer (the first user, with its blocks and mutes) reads `--list` (default everyone's
 * posts) at the top and `--deep` items down (default 6,000: page 500 of 12), the two in
 * alternating rounds, each timed by the main thread's CPU. `--profile` writes a CPU profile of each.
 *   DATA_DIR=<a copy of D1> tsx bench/deepPage.ts [--list /api/posts?feed=all] [--deep 6000]
 *     [--count 2000] [--warmup 300] [--rounds 5] [--profile] [--block-commenters 10]
 * `--block-commenters N`: the viewer also blocks N people who commented on the deep page's posts
 * (not on the first page's), as on D1 where older posts carry comments of people the viewer blocks.
 */
import path from 'node:path';
import { nextLink } from '../lib/links';
import { benchViewer } from './community';
import { startProfile } from './cpuProfile';
import { flag, inProcessApp, signedInCookie, threadCpu } from './inProcessApp';
import { median } from './median';

const LIST = flag('list', '/api/posts?feed=all');
const DEEP = Number(flag('deep', '6000'));
const COUNT = Number(flag('count', '2000'));
const WARMUP = Number(flag('warmup', '300'));
const ROUNDS = Number(flag('rounds', '5'));
const PROFILE = process.argv.includes('--profile');
const BLOCK_COMMENTERS = Number(flag('block-commenters', '0'));

const { config, db, storage, app } = await inProcessApp();
// With its blocks and mutes, as the single-page bench gives them (a copy already run keeps them).
const viewer = await benchViewer(db.kysely);
const cookie = await signedInCookie(app, viewer.email);

async function get(url: string) {
  const res = await app.inject({ method: 'GET', url, headers: { cookie, host: 'localhost:3000' } });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
  return res;
}

// The deep page's cursor, found as the bench finds it: following Link headers, 40 a page.
let next: string | null = `${LIST}${LIST.includes('?') ? '&' : '?'}limit=40`;
let items = 0;
let cursor: string | null = null;
while (next && items < DEEP) {
  const res = await get(next);
  items += (res.json() as unknown[]).length;
  next = nextLink(res.headers.link as string | undefined);
  cursor = next && new URL(next, 'http://x').searchParams.get('cursor');
}
if (!cursor) throw new Error(`${LIST} has fewer than ${DEEP} items`);
const sep = LIST.includes('?') ? '&' : '?';
if (BLOCK_COMMENTERS > 0) {
  const deepIds = ((await get(`${LIST}${sep}cursor=${cursor}`)).json() as { _id: string; commentsCount: number }[]).map(
    (p) => p._id,
  );
  const commenters = await db.kysely
    .selectFrom('comments')
    .select('user_id')
    .distinct()
    .where('post_id', 'in', deepIds)
    .where('user_id', '!=', viewer.id)
    .where('user_id', 'not in', db.kysely.selectFrom('blocks').select('target_id').where('user_id', '=', viewer.id))
    .limit(BLOCK_COMMENTERS)
    .execute();
  for (const { user_id } of commenters) {
    const name = await db.kysely
      .selectFrom('users')
      .select('username')
      .where('id', '=', user_id)
      .executeTakeFirstOrThrow();
    const res = await app.inject({
      method: 'PATCH',
      url: `/api/users/${name.username}/block`,
      headers: { cookie, host: 'localhost:3000' },
    });
    if (res.statusCode !== 200) throw new Error(`block ${name.username}: ${res.statusCode} ${res.body}`);
  }
  console.log(`blocked ${commenters.length} people who commented on the deep page`);
}
const pages = [
  { name: 'first page', url: LIST },
  { name: `deep page (after ${items})`, url: `${LIST}${sep}cursor=${cursor}` },
];

const results = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const page of pages) {
    for (let i = 0; i < WARMUP; i++) await get(page.url);
    const stop = PROFILE && round === ROUNDS - 1 ? await startProfile() : null;
    const cpu = threadCpu();
    for (let i = 0; i < COUNT; i++) await get(page.url);
    results.set(page.name, [...(results.get(page.name) ?? []), (threadCpu() - cpu) / COUNT]);
    await stop?.(path.join(config.dataDir, `deep-${page.name.split(' ')[0]}.cpuprofile`), COUNT);
  }
}
console.log(`${LIST}: µs of the main thread's CPU per request (${COUNT} a round, ${ROUNDS} rounds; min · median):`);
for (const [name, figures] of results)
  console.log(
    `  ${name.padEnd(24)} ${Math.min(...figures)
      .toFixed(0)
      .padStart(5)} · ${median(figures).toFixed(0).padStart(5)}   (${figures.map((f) => f.toFixed(0)).join(', ')})`,
  );
const [first, deep] = [...results.values()].map(median);
console.log(`  deep ÷ first (by req/s: first's CPU over deep's): ${(first / deep).toFixed(2)}`);

await app.close();
storage.close?.();
await db.close().catch(() => {});
process.exit(0);
