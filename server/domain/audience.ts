/**
 * Who may see a post by its audience (issue 70): the one rule, in memory for the cached lists and
 * in SQL for the database's own queries; tests/server/visibility.test.ts runs every case through
 * both, and tests/server/privacyMatrix.test.ts through every surface. Blocks, mutes and suspensions
 * are `safety/visibility.ts`'s; a post shows where both allow it (`posts/access.ts`).
 */
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Audience } from '../../lib/audience';
import { usernameKey } from '../../lib/validation';
import type { Queryable } from '../db/schema';
import { unplanned } from '../db/stablePlans';

/**
 * Where a post is shown: the `public` lists (Everyone, a tag, search), a reader's `home` feed, or
 * `content` reached by its address or its author (the post, its comments and likes, a profile).
 */
export type AudiencePlace = 'public' | 'home' | 'content';

/** A reader as the in-memory rule asks of them. */
export interface AudienceReader {
  id: string;
  /** Their lower-cased username ('' for nobody signed in): a `mentioned` post names them. */
  nameKey: string;
  /** Whether they follow the person (an approved follow); only asked outside the public lists. */
  follows(personId: string): boolean;
}

/** What a row needs for the rule: its author, audience and the names it mentions (comma-joined). */
export interface AudienceRow {
  creator_id: string;
  audience: Audience;
  mentions: string | null;
}

const namedIn = (mentions: string | null, nameKey: string) =>
  nameKey !== '' && mentions !== null && mentions.split(',').some((name) => usernameKey(name) === nameKey);

/**
 * The rule. The public lists show public posts only (the author's own too). Elsewhere the author
 * sees all of theirs; anyone sees public and unlisted posts; a followers-only post its author's
 * approved followers; a `mentioned` post the people it names.
 */
export function audienceAdmits(row: AudienceRow, reader: AudienceReader, place: AudiencePlace): boolean {
  if (row.audience === 'public') return true;
  if (place === 'public') return false;
  if (row.creator_id === reader.id || row.audience === 'unlisted') return true;
  if (row.audience === 'followers') return reader.follows(row.creator_id);
  return namedIn(row.mentions, reader.nameKey);
}

/**
 * The same rule in SQL, for a query on posts (`posts`, or the alias of a select of posts with
 * `id`, `creator_id` and `audience`). The home feed's own posts are those of the reader and the
 * people they follow, so its `home` is `content` there.
 */
export function audienceAllows(
  db: Queryable,
  viewerId: string | Expression<string>,
  place: AudiencePlace,
  posts = 'posts',
): Expression<SqlBool> {
  const column = (name: string) => sql.ref(`${posts}.${name}`);
  if (place === 'public') return sql<SqlBool>`${column('audience')} = 'public'`;
  const viewer = typeof viewerId === 'string' ? unplanned(db, viewerId) : viewerId;
  const follows = sql`exists (select 1 from follows where follows.follower_id = ${viewer} and follows.followee_id = ${column('creator_id')})`;
  const mentioned = sql`exists (select 1 from post_mentions m where m.post_id = ${column('id')} and m.user_id = ${viewer})`;
  const author = sql`${column('creator_id')} = ${viewer}`;
  // One CASE, not ORs: SQLite's planner would weigh an OR of the author's id for an index, and so
  // re-prepare the statement for every reader (db/stablePlans.ts).
  return sql<SqlBool>`(case ${column('audience')} when 'public' then true when 'unlisted' then true when 'followers' then (${author} or ${follows}) when 'mentioned' then (${author} or ${mentioned}) else false end)`;
}
