/** The keyset page every list uses: UUIDv7 ids are time-ordered, so "older than the cursor" is "after it". */
import type { Expression, SelectQueryBuilder, StringReference } from 'kysely';
import { literalLimit } from './stablePlans';

/** Rows whose `column` is below `cursor` (all rows when null), newest first, at most `limit`. */
export function newestFirst<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  column: StringReference<DB, TB>,
  cursor: string | null,
  limit: number,
) {
  // Every keyset column is a varchar id; Kysely cannot see that through the generic column.
  const below = cursor ? query.where(column, '<', cursor as never) : query;
  return below.orderBy(column, 'desc').limit(literalLimit(limit));
}

/**
 * Rows below the cursor's row by (`time`, `id`), newest first, ties broken by `id`, at most `limit`
 * (all rows when `cursor` is null): for lists in the order of when each row was made (a save, a
 * like), whose cursor is still an id. `cursor.time` reads that row's time in the same statement
 * (a subquery the caller writes on its own keys); a row gone since reads NULL, so the list ends.
 */
export function newestFirstByTime<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  order: { time: StringReference<DB, TB>; id: StringReference<DB, TB> },
  cursor: { id: string; time: Expression<unknown> } | null,
  limit: number,
) {
  // As in `newestFirst`, Kysely cannot see the generic columns' types: the values pass as `never`.
  const at = cursor?.time as never;
  const below = cursor
    ? query.where((eb) =>
        eb.or([eb(order.time, '<', at), eb.and([eb(order.time, '=', at), eb(order.id, '<', cursor.id as never)])]),
      )
    : query;
  return below.orderBy(order.time, 'desc').orderBy(order.id, 'desc').limit(literalLimit(limit));
}
