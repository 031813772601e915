/**
 * Like/dislike toggling, shared by posts and comments: pressing the same reaction again removes
 * it, the other one replaces it. Counters change in the same transaction as the reaction row.
 */
import { type Kysely, sql } from 'kysely';
import type { Reaction, ReactionCounts } from '../../lib/types';
import { dialectOf } from '../db/database';
import { prepared } from '../db/prepared';
import type { Queryable } from '../db/schema';
import { nowIso } from '../domain/ids';

export interface ReactionTarget {
  /** Table holding the counters (`posts` or `comments`). */
  table: 'posts' | 'comments';
  reactions: 'post_reactions' | 'comment_reactions';
  key: 'post_id' | 'comment_id';
}

export const POST_REACTIONS: ReactionTarget = { table: 'posts', reactions: 'post_reactions', key: 'post_id' };
export const COMMENT_REACTIONS: ReactionTarget = {
  table: 'comments',
  reactions: 'comment_reactions',
  key: 'comment_id',
};

const counterOf = (kind: Reaction) => (kind === 'like' ? 'likes_count' : 'dislikes_count');

/** Run inside a transaction; returns null when the target row does not exist. */
async function toggleReaction(
  trx: Queryable,
  target: ReactionTarget,
  targetId: string,
  userId: string,
  kind: Reaction,
): Promise<ReactionCounts | null> {
  // The tables differ only by name; Kysely's static types cannot follow a table chosen at run time.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table's columns, see above
  const db = trx as unknown as Kysely<any>;
  let lock = db.selectFrom(target.table).select('id').where('id', '=', targetId);
  // PostgreSQL runs transactions concurrently: lock the row so two toggles cannot both read "none".
  // SQLite runs one write transaction at a time, and has no FOR UPDATE.
  if (dialectOf(trx) === 'postgres') lock = lock.forUpdate();
  if (!(await lock.executeTakeFirst())) return null;

  const existing = (await db
    .selectFrom(target.reactions)
    .select('kind')
    .where(target.key, '=', targetId)
    .where('user_id', '=', userId)
    .executeTakeFirst()) as { kind: Reaction } | undefined;

  const deltas: Partial<Record<'likes_count' | 'dislikes_count', number>> = {};
  let mine: Reaction | null;
  if (existing?.kind === kind) {
    await db.deleteFrom(target.reactions).where(target.key, '=', targetId).where('user_id', '=', userId).execute();
    deltas[counterOf(kind)] = -1;
    mine = null;
  } else if (existing) {
    await db
      .updateTable(target.reactions)
      .set({ kind, created_at: nowIso() })
      .where(target.key, '=', targetId)
      .where('user_id', '=', userId)
      .execute();
    deltas[counterOf(existing.kind)] = -1;
    deltas[counterOf(kind)] = 1;
    mine = kind;
  } else {
    await db
      .insertInto(target.reactions)
      .values({ [target.key]: targetId, user_id: userId, kind, created_at: nowIso() })
      .execute();
    deltas[counterOf(kind)] = 1;
    mine = kind;
  }
  const set = Object.fromEntries(
    Object.entries(deltas).map(([column, delta]) => [column, sql`${sql.ref(column)} + ${delta}`]),
  );
  const counts = (await db
    .updateTable(target.table)
    .set(set)
    .where('id', '=', targetId)
    .returning(['likes_count', 'dislikes_count'])
    .executeTakeFirstOrThrow()) as { likes_count: number; dislikes_count: number };
  return { likesCount: Number(counts.likes_count), dislikesCount: Number(counts.dislikes_count), myReaction: mine };
}

const reactionsBy = {
  post_reactions: prepared((db, v: { userId: string; limit: number }) =>
    db.selectFrom('post_reactions').select(['post_id as id', 'kind']).where('user_id', '=', v.userId).limit(v.limit),
  ),
  comment_reactions: prepared((db, v: { userId: string; limit: number }) =>
    db
      .selectFrom('comment_reactions')
      .select(['comment_id as id', 'kind'])
      .where('user_id', '=', v.userId)
      .limit(v.limit),
  ),
};

/** All of the user's reactions to one kind of row, by row id; null when they have more than `max`. */
export async function reactionsByUser(
  db: Queryable,
  target: ReactionTarget,
  userId: string,
  max: number,
): Promise<Map<string, Reaction> | null> {
  const rows = await reactionsBy[target.reactions](db, { userId, limit: max + 1 });
  return rows.length > max ? null : new Map(rows.map((row) => [row.id, row.kind as Reaction]));
}

/** Reaction toggling bound to a transaction. */
export const reactionsRepository = (trx: Queryable) => ({
  toggle: (target: ReactionTarget, targetId: string, userId: string, kind: Reaction) =>
    toggleReaction(trx, target, targetId, userId, kind),
});

export type ReactionsRepository = ReturnType<typeof reactionsRepository>;
