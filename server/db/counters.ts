/**
 * Every stored counter against the rows it counts: what `npm run check:counters` reports and,
 * with `--fix`, sets right. Plain SQL that both databases run the same way.
 */
import { sql } from 'kysely';
import type { Queryable } from './schema';

interface Counter {
  table: 'users' | 'posts' | 'comments';
  column: string;
  /** Counts the rows of one `table` row, whose id is `<table>.id`. */
  rows: ReturnType<typeof sql>;
}

const COUNTERS: Counter[] = [
  {
    table: 'users',
    column: 'followers_count',
    rows: sql`SELECT count(*) FROM follows WHERE follows.followee_id = users.id`,
  },
  {
    table: 'users',
    column: 'following_count',
    rows: sql`SELECT count(*) FROM follows WHERE follows.follower_id = users.id`,
  },
  { table: 'users', column: 'posts_count', rows: sql`SELECT count(*) FROM posts WHERE posts.creator_id = users.id` },
  {
    table: 'posts',
    column: 'likes_count',
    rows: sql`SELECT count(*) FROM post_reactions r WHERE r.post_id = posts.id AND r.kind = 'like'`,
  },
  {
    table: 'posts',
    column: 'dislikes_count',
    rows: sql`SELECT count(*) FROM post_reactions r WHERE r.post_id = posts.id AND r.kind = 'dislike'`,
  },
  {
    table: 'posts',
    column: 'comments_count',
    rows: sql`SELECT count(*) FROM comments WHERE comments.post_id = posts.id`,
  },
  {
    table: 'comments',
    column: 'likes_count',
    rows: sql`SELECT count(*) FROM comment_reactions r WHERE r.comment_id = comments.id AND r.kind = 'like'`,
  },
  {
    table: 'comments',
    column: 'dislikes_count',
    rows: sql`SELECT count(*) FROM comment_reactions r WHERE r.comment_id = comments.id AND r.kind = 'dislike'`,
  },
];

export interface CounterDrift {
  table: string;
  id: string;
  column: string;
  stored: number;
  actual: number;
}

/** Every counter that differs from its rows. */
export async function findCounterDrift(db: Queryable): Promise<CounterDrift[]> {
  const drift: CounterDrift[] = [];
  for (const { table, column, rows } of COUNTERS) {
    const found = await sql<{ id: string; stored: number | string; actual: number | string }>`
      SELECT id, ${sql.ref(column)} AS stored, (${rows}) AS actual
      FROM ${sql.table(table)}
      WHERE ${sql.ref(column)} <> (${rows})
      ORDER BY id`.execute(db);
    for (const row of found.rows)
      drift.push({ table, id: row.id, column, stored: Number(row.stored), actual: Number(row.actual) });
  }
  return drift;
}

/** Sets every drifted counter to its rows' count; returns how many it changed. */
export async function repairCounters(db: Queryable): Promise<number> {
  let changed = 0;
  for (const { table, column, rows } of COUNTERS) {
    const result = await sql`
      UPDATE ${sql.table(table)} SET ${sql.ref(column)} = (${rows})
      WHERE ${sql.ref(column)} <> (${rows})`.execute(db);
    changed += Number(result.numAffectedRows ?? 0);
  }
  return changed;
}
