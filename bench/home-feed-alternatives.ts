/**
 * Evidence for docs/benchmarks.md ("home feed"): the home feed's id query as the repository runs
 * it (a UNION ALL of one head per followee, built by Kysely and prepared per request) against
 * alternatives on the same data, each timed alone:
 *   tsx bench/home-feed-alternatives.ts   (reads data/bench/posts.db, seeded with D1)
 */
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../server/db/schema';
import * as posts from '../server/posts/repository';
const sqlite = new SQLite(process.env.DB_FILE ?? 'data/bench/posts.db', { readonly: true });
let last: { sql: string; parameters: readonly unknown[] } | null = null;
const k = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), log: (e) => { if (e.level === 'query') last = { sql: e.query.sql, parameters: e.query.parameters }; } });
const viewer = (sqlite.prepare('select id from users order by id limit 1').get() as { id: string }).id;
const MAX = 'ffffffff-ffff-7fff-bfff-ffffffffffff';
function t(name: string, f: () => unknown, n = 40) {
  f();
  const s = performance.now();
  for (let i = 0; i < n; i++) f();
  console.log(name.padEnd(50), ((performance.now() - s) / n).toFixed(3), 'ms');
}
async function ta(name: string, f: () => Promise<unknown>, n = 40) {
  await f();
  const s = performance.now();
  for (let i = 0; i < n; i++) await f();
  console.log(name.padEnd(50), ((performance.now() - s) / n).toFixed(3), 'ms');
}
await ta('kysely homeFeedIds', () => posts.homeFeedIds(k, viewer, null, 13, { dialect: 'sqlite' }));
await posts.homeFeedIds(k, viewer, null, 13, { dialect: 'sqlite' });
const big = last!;
console.log('union sql chars', big.sql.length, 'params', big.parameters.length);
t('prepare union', () => sqlite.prepare(big.sql));
const stmt = sqlite.prepare(big.sql);
t('run prepared union', () => stmt.all(...(big.parameters as unknown[])));
t('kysely compile only', () => {
  const followees = sqlite.prepare('select followee_id from follows where follower_id = ? limit 400').all(viewer) as { followee_id: string }[];
  const creators = [viewer, ...followees.map((f) => f.followee_id)];
  const heads = creators.map((c, i) => k.selectFrom(k.selectFrom('posts').select('id').where('creator_id', '=', c).orderBy('id', 'desc').limit(13).as(`h${i}`)).select('id'));
  const merged = heads.slice(1).reduce((u, h) => u.unionAll(h), heads[0]);
  return k.selectFrom(merged.as('heads')).select('id').orderBy('id', 'desc').limit(13).compile();
});
const correlated = sqlite.prepare(`SELECT h.id FROM (SELECT followee_id AS c FROM follows WHERE follower_id = @v UNION ALL SELECT @v) f
  JOIN posts h ON h.id IN (SELECT id FROM posts WHERE creator_id = f.c AND id < @c ORDER BY id DESC LIMIT @l)
  ORDER BY h.id DESC LIMIT @l`);
console.log((sqlite.prepare(`EXPLAIN QUERY PLAN SELECT h.id FROM (SELECT followee_id AS c FROM follows WHERE follower_id = @v UNION ALL SELECT @v) f
  JOIN posts h ON h.id IN (SELECT id FROM posts WHERE creator_id = f.c AND id < @c ORDER BY id DESC LIMIT @l)
  ORDER BY h.id DESC LIMIT @l`).all({ v: viewer, c: MAX, l: 13 }) as { detail: string }[]).map((r) => r.detail).join('\n'));
t('correlated IN (one constant statement)', () => correlated.all({ v: viewer, c: MAX, l: 13 }));
const a = (correlated.all({ v: viewer, c: MAX, l: 13 }) as { id: string }[]).map((r) => r.id);
const b = stmt.all(...(big.parameters as unknown[])) as { id: string }[];
console.log('same result:', JSON.stringify(a) === JSON.stringify(b.map((r) => r.id)));
const head = sqlite.prepare('SELECT id FROM posts WHERE creator_id = ? AND id < ? ORDER BY id DESC LIMIT ?').pluck();
const fol = sqlite.prepare('SELECT followee_id FROM follows WHERE follower_id = ?').pluck();
t('JS merge, one prepared head query per creator', () => {
  const ids: string[] = [];
  for (const c of [viewer, ...(fol.all(viewer) as string[])]) ids.push(...(head.all(c, MAX, 13) as string[]));
  return ids.sort().reverse().slice(0, 13);
});
const scanSql = `SELECT id FROM posts WHERE +creator_id IN (SELECT followee_id FROM follows WHERE follower_id = @v UNION ALL SELECT @v) AND id < @c ORDER BY id DESC LIMIT @l`;
console.log((sqlite.prepare(`EXPLAIN QUERY PLAN ${scanSql}`).all({ v: viewer, c: MAX, l: 13 }) as { detail: string }[]).map((r) => r.detail).join('\n'));
const scan = sqlite.prepare(scanSql);
t('scan ids newest-first, IN followees (first page)', () => scan.all({ v: viewer, c: MAX, l: 13 }));
console.log('same result:', JSON.stringify(scan.all({ v: viewer, c: MAX, l: 13 })) === JSON.stringify(correlated.all({ v: viewer, c: MAX, l: 13 })));
const share = sqlite.prepare(`SELECT count(*) AS n FROM posts WHERE creator_id IN (SELECT followee_id FROM follows WHERE follower_id = @v UNION ALL SELECT @v)`).get({ v: viewer }) as { n: number };
console.log('posts by followees+me:', share.n, 'of 1M');
// The least active viewer: whose followees post least.
const sparse = sqlite.prepare(`SELECT f.follower_id AS v, sum(u.posts_count) AS n FROM follows f JOIN users u ON u.id = f.followee_id GROUP BY f.follower_id ORDER BY n LIMIT 1`).get() as { v: string; n: number };
console.log('sparsest viewer sees', sparse.n, 'posts');
t('scan, sparsest viewer', () => scan.all({ v: sparse.v, c: MAX, l: 13 }), 5);
t('correlated, sparsest viewer', () => correlated.all({ v: sparse.v, c: MAX, l: 13 }), 5);
