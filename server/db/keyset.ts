/** The keyset page every list uses: UUIDv7 ids are time-ordered, so "older than the cursor" is "after it". */
import type { SelectQueryBuilder, StringReference } from 'kysely';
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
