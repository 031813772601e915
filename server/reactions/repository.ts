/**
 * Like/dislike toggling, shared by posts and comments: pressing the same reaction again removes
 * it, the other one replaces it. Counters change in the same transaction as the reaction row.
 */
import { type Kysely, sql } from 'kysely';
import type { Reaction, ReactionCounts } from '../../lib/types';
import { dialectOf } from '../db/database';
import { prepared } from '../db/prepared';
import { ReaderReactions } from '../cache/readerReactions';
import type { Queryable } from '../db/schema';
import { type Steps, ask, stepsOn } from '../db/steps';
import { nowIso } from '../domain/ids';
import type { CountsMoved } from '../events/events';

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

type Counter = 'likes_count' | 'dislikes_count';
const counterOf = (kind: Reaction): Counter => (kind === 'like' ? 'likes_count' : 'dislikes_count');

// The tables differ only by name; Kysely's static types cannot follow a table chosen at run time.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table's columns, see above
const untyped = (db: Queryable) => db as unknown as Kysely<any>;

/**
 * A toggle's statements for one target, each built once (`prepared`): a like is a handful of
 * statements, and building them with Kysely on every call cost as much as running them.
 */
function toggleStatements({ table, reactions, key }: ReactionTarget) {
  type Mine = { id: string; userId: string };
  return {
    // PostgreSQL runs transactions concurrently: lock the row so two toggles cannot both read "none".
    // SQLite runs one write transaction at a time, and has no FOR UPDATE.
    lock: prepared((db, v: { id: string }) => {
      const query = untyped(db).selectFrom(table).select('id').where('id', '=', v.id);
      return dialectOf(db) === 'postgres' ? query.forUpdate() : query;
    }),
    existing: prepared((db, v: Mine) =>
      untyped(db).selectFrom(reactions).select('kind').where(key, '=', v.id).where('user_id', '=', v.userId),
    ),
    remove: prepared((db, v: Mine) =>
      untyped(db).deleteFrom(reactions).where(key, '=', v.id).where('user_id', '=', v.userId),
    ),
    replace: prepared((db, v: Mine & { kind: Reaction; at: string }) =>
      untyped(db)
        .updateTable(reactions)
        .set({ kind: v.kind, created_at: v.at })
        .where(key, '=', v.id)
        .where('user_id', '=', v.userId),
    ),
    add: prepared((db, v: Mine & { kind: Reaction; at: string }) =>
      untyped(db)
        .insertInto(reactions)
        .values({ [key]: v.id, user_id: v.userId, kind: v.kind, created_at: v.at }),
    ),
    // The deltas are -1, 0 or 1: each pair is its own statement (`prepared` keys numbers into the SQL).
    count: prepared((db, v: { id: string; likes: number; dislikes: number }) =>
      untyped(db)
        .updateTable(table)
        .set({ likes_count: sql`likes_count + ${v.likes}`, dislikes_count: sql`dislikes_count + ${v.dislikes}` })
        .where('id', '=', v.id)
        .returning(['likes_count', 'dislikes_count']),
    ),
  };
}

const TOGGLES = {
  posts: toggleStatements(POST_REACTIONS),
  comments: toggleStatements(COMMENT_REACTIONS),
};

/**
 * A toggle's steps, run in a transaction (`steps.ts`): the counts to answer with, and how the row's
 * counters moved (for its event); null when the target row does not exist.
 */
export function* toggleSteps(
  target: ReactionTarget,
  targetId: string,
  userId: string,
  kind: Reaction,
): Steps<{ counts: ReactionCounts; counted: CountsMoved } | null> {
  const statements = TOGGLES[target.table];
  const ids = { id: targetId, userId };
  if ((yield* ask(statements.lock, { id: targetId })).length === 0) return null;
  const [existing] = (yield* ask(statements.existing, ids)) as { kind: Reaction }[];

  const deltas = { likes_count: 0, dislikes_count: 0 };
  let mine: Reaction | null;
  if (existing?.kind === kind) {
    yield* ask(statements.remove, ids);
    deltas[counterOf(kind)] = -1;
    mine = null;
  } else if (existing) {
    yield* ask(statements.replace, { ...ids, kind, at: nowIso() });
    deltas[counterOf(existing.kind)] = -1;
    deltas[counterOf(kind)] = 1;
    mine = kind;
  } else {
    yield* ask(statements.add, { ...ids, kind, at: nowIso() });
    deltas[counterOf(kind)] = 1;
    mine = kind;
  }
  const [counts] = (yield* ask(statements.count, {
    id: targetId,
    likes: deltas.likes_count,
    dislikes: deltas.dislikes_count,
  })) as { likes_count: number; dislikes_count: number }[];
  const now = { likes_count: Number(counts.likes_count), dislikes_count: Number(counts.dislikes_count) };
  return {
    counts: { likesCount: now.likes_count, dislikesCount: now.dislikes_count, myReaction: mine },
    counted: { now, by: deltas },
  };
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
): Promise<ReaderReactions | null> {
  const rows = await reactionsBy[target.reactions](db, { userId, limit: max + 1 });
  return rows.length > max ? null : ReaderReactions.of(rows.map((row) => [row.id, row.kind as Reaction]));
}

/** Reaction toggling bound to a transaction. */
export const reactionsRepository = (trx: Queryable) => ({
  toggle: (target: ReactionTarget, targetId: string, userId: string, kind: Reaction) =>
    stepsOn(trx, toggleSteps(target, targetId, userId, kind)),
});

export type ReactionsRepository = ReturnType<typeof reactionsRepository>;
