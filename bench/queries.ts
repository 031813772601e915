/**
 * `npm run bench:queries`: times the repository queries behind each benchmark row directly
 * (no HTTP), first page and deep page, and prints SQLite's EXPLAIN QUERY PLAN of each statement:
 * the first place to look when a row of `npm run bench` misses its target.
 *   DATA_DIR=data/bench tsx bench/queries.ts [--plans] [--statement-cache]
 */
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { commentsRepository } from '../server/comments/repository';
import { loadConfig } from '../server/config';
import type { Database } from '../server/db/schema';
import { createFeedIndex } from '../server/posts/homeFeed/feedIndex';
import { personNumbers } from '../server/posts/homeFeed/personNumbers';
import { homeFeedQueries } from '../server/posts/homeFeed/queries';
import { postsRepository } from '../server/posts/repository';

process.env.DATA_DIR ??= 'data/bench';
const config = loadConfig();
if (config.databaseUrl.startsWith('postgres'))
  throw new Error('bench:queries reads SQLite files only; use EXPLAIN ANALYZE in psql for PostgreSQL');
const showPlans = process.argv.includes('--plans');
const sqlite = new SQLite(config.databaseUrl.replace(/^sqlite:(\/\/)?/, ''), { readonly: true });
let statements: { sql: string; parameters: readonly unknown[] }[] = [];
/**
 * --statement-cache: what a prepared-statement cache would save. Kysely's SQLite driver calls
 * `prepare()` for every query; this memoises it by SQL text (statements are reusable: the single
 * connection runs one query at a time).
 */
const statementCache = new Map<string, SQLite.Statement>();
const database = process.argv.includes('--statement-cache')
  ? new Proxy(sqlite, {
      get(target, property) {
        if (property === 'prepare') {
          return (sql: string) => {
            let statement = statementCache.get(sql);
            if (!statement) statementCache.set(sql, (statement = target.prepare(sql)));
            return statement;
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    })
  : sqlite;
const k = new Kysely<Database>({
  dialect: new SqliteDialect({ database }),
  log: (event) => {
    if (event.level === 'query') statements.push({ sql: event.query.sql, parameters: event.query.parameters });
  },
});
const posts = postsRepository(k);
const feed = homeFeedQueries(k);
const { listComments } = commentsRepository(k);
const one = <T>(sql: string) => sqlite.prepare(sql).get() as T;

async function time(name: string, work: () => Promise<unknown>): Promise<void> {
  await work();
  statements = [];
  await work();
  const seen = statements;
  statements = [];
  const runs = 30;
  const started = performance.now();
  for (let i = 0; i < runs; i++) await work();
  console.log(
    `${name.padEnd(40)} ${((performance.now() - started) / runs).toFixed(2).padStart(8)} ms  (${seen.length} statements)`,
  );
  if (!showPlans) return;
  for (const statement of seen) {
    const plan = sqlite.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(...(statement.parameters as unknown[])) as {
      id: number;
      parent: number;
      detail: string;
    }[];
    const depth = new Map<number, number>([[0, 0]]);
    console.log(`    ${statement.sql.length > 160 ? `${statement.sql.slice(0, 160)}…` : statement.sql}`);
    // Union-of-heads statements have hundreds of identical plan rows: show the first ones.
    for (const row of plan.slice(0, 12)) {
      depth.set(row.id, (depth.get(row.parent) ?? 0) + 1);
      console.log(`      ${'  '.repeat(depth.get(row.id)! - 1)}${row.detail}`);
    }
    if (plan.length > 12) console.log(`      … ${plan.length - 12} more plan rows`);
  }
}

/** The id that ends page 500 of a list: what a deep-page cursor points at. */
const nth = (ids: string[]) => ids[Math.min(ids.length, 6000) - 1] ?? null;

const viewer = one<{ id: string }>('SELECT id FROM users ORDER BY id LIMIT 1').id;
const prolific = one<{ id: string; username: string }>(
  'SELECT id, username FROM users ORDER BY posts_count DESC LIMIT 1',
);
const hot = one<{ id: string }>('SELECT id FROM posts ORDER BY comments_count DESC LIMIT 1').id;
const common = one<{ tag: string }>('SELECT tag FROM post_tags GROUP BY tag ORDER BY count(*) DESC LIMIT 1').tag;
const rare = one<{ tag: string }>('SELECT tag FROM post_tags GROUP BY tag ORDER BY count(*) ASC LIMIT 1').tag;

const homeDeep = nth((await feed.homeFeedPosts(viewer, null, 6000)).map((p) => p.id));
const allDeep = nth(
  (await k.selectFrom('posts').select('id').orderBy('id', 'desc').limit(6000).execute()).map((r) => r.id),
);
const tagDeep = nth((await posts.taggedPosts(viewer, [common], null, 6000)).map((p) => p.id));
const creatorDeep = nth(
  (
    await k
      .selectFrom('posts')
      .select('id')
      .where('creator_id', '=', prolific.id)
      .orderBy('id', 'desc')
      .limit(6000)
      .execute()
  ).map((r) => r.id),
);
const commentDeep = nth(
  (
    await k.selectFrom('comments').select('id').where('post_id', '=', hot).orderBy('id', 'desc').limit(6000).execute()
  ).map((r) => r.id),
);

const feedPage = (cursor: string | null) => feed.homeFeedPosts(viewer, cursor, 13);
const tagPage = (tag: string, cursor: string | null) => posts.taggedPosts(viewer, [tag], cursor, 13);
await time('home feed (database walk), first page', () => feedPage(null));
await time('home feed (database walk), deep page', () => feedPage(homeDeep));
// What the server does once its feed index has loaded (follow list read every time, not cached).
const numbers = personNumbers();
const index = createFeedIndex(k, { maxPosts: 5_000_000, syncMs: 1_000 }, numbers);
await index.start();
const indexPage = async (cursor: string | null) =>
  feed.postsByIds(viewer, index.newest(viewer, numbers.listOf(await feed.followeeIds(viewer)), cursor, 13)!);
await time('home feed (index walk), first page', () => indexPage(null));
await time('home feed (index walk), deep page', () => indexPage(homeDeep));
await index.close();
await time('everyone, first page', () => posts.allPosts(viewer, null, 13));
await time('everyone, deep page', () => posts.allPosts(viewer, allDeep, 13));
await time(`tag "${common}", first page`, () => tagPage(common, null));
await time(`tag "${common}", deep page`, () => tagPage(common, tagDeep));
await time(`tag "${rare}", first page`, () => tagPage(rare, null));
await time('profile posts, first page', () => posts.postsByCreator(viewer, prolific.username, null, 13));
await time('profile posts, deep page', () => posts.postsByCreator(viewer, prolific.username, creatorDeep, 13));
await time('post comments, first page', () => listComments(viewer, hot, null, 13));
await time('post comments, deep page', () => listComments(viewer, hot, commentDeep, 13));
await k.destroy();
