/**
 * Who may see whose content: one rule (`mayShow`), written once here. The in-memory filters
 * (`hiddenAuthors.ts`: cached lists; `hiddenFrom`: a profile) are made from it; the SQL filters
 * below say the same in SQL, and tests/server/visibility.test.ts runs every case through both.
 *
 * The SQL: each is a correlated probe of a primary key, so a keyset page reads the rows it did before
 * plus one index seek per candidate and filter (docs/api-decisions.md, Blocks and mutes).
 */
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Queryable } from '../db/schema';
import { unplanned } from '../db/stablePlans';

/** How a viewer and an author stand; one's own content is always shown (no one blocks or mutes themselves). */
export interface Standing {
  /** The author's account is suspended. */
  suspended: boolean;
  viewerBlocksAuthor: boolean;
  authorBlocksViewer: boolean;
  viewerMutesAuthor: boolean;
  /** The author's domain is silenced (`users.domain_silenced`, federation/domainBlocks.ts). */
  silenced: boolean;
  viewerFollowsAuthor: boolean;
}

/**
 * Where it is shown: the author's `profile` (their page, following lists), their `content` reached
 * by its address (a post's page, a profile's posts, a comment by its id), what the viewer comes
 * `across` without asking for the author (a post's comments, people search, notifications), or the
 * `feed`s (home, everyone, a tag).
 */
export type Place = 'profile' | 'content' | 'across' | 'feed';

/**
 * The rule. Nothing of a suspended author, nor of one who blocks the viewer. The viewer's own block
 * leaves the blocked person's profile visible (to undo it from there) and hides their content; a
 * silenced domain's people are kept out of what the viewer comes across and the feeds unless the
 * viewer follows them (Mastodon's "limit"); a mute hides them from the feeds only.
 */
export function mayShow(standing: Standing, place: Place): boolean {
  if (standing.suspended || standing.authorBlocksViewer) return false;
  if (place === 'profile') return true;
  if (standing.viewerBlocksAuthor) return false;
  if (place === 'content') return true;
  if (standing.silenced && !standing.viewerFollowsAuthor) return false;
  return place === 'across' || !standing.viewerMutesAuthor;
}

/** `viewerId` blocks `author` or `author` blocks `viewerId`. */
export function blockedEitherWay(db: Queryable, viewerId: string, author: string): Expression<SqlBool> {
  const viewer = unplanned(db, viewerId);
  const ref = sql.ref(author);
  return sql<SqlBool>`(exists (select 1 from blocks where blocks.user_id = ${viewer} and blocks.target_id = ${ref}) or exists (select 1 from blocks where blocks.user_id = ${ref} and blocks.target_id = ${viewer}))`;
}

/** `viewerId` mutes `author`. */
export function mutedBy(db: Queryable, viewerId: string, author: string): Expression<SqlBool> {
  return sql<SqlBool>`exists (select 1 from mutes where mutes.user_id = ${unplanned(db, viewerId)} and mutes.target_id = ${sql.ref(author)})`;
}

/**
 * Unless `viewerId` follows `author`, a silenced domain's person (`authorRow.domain_silenced`) is
 * hidden: the follow is probed only for their rows, so other rows cost nothing more.
 */
export function silencedUnfollowed(db: Queryable, viewerId: string, author: string, authorRow: string) {
  const follows = sql<SqlBool>`exists (select 1 from follows where follows.follower_id = ${unplanned(db, viewerId)} and follows.followee_id = ${sql.ref(author)})`;
  return sql<SqlBool>`(${sql.ref(`${authorRow}.domain_silenced`)} = 1 and not ${follows})`;
}

/** What a list hides: `content` blocks and suspensions, `across` silenced people too, `feed` mutes too, `all` nothing. */
export type Visibility = 'content' | 'across' | 'feed' | 'all';

/**
 * What `viewerId` may see of `author`'s content in `place` (`mayShow`): `authorRow` is the author's
 * joined users row (for `suspended_at` and `domain_silenced`).
 */
export function visibleAuthor(
  db: Queryable,
  viewerId: string,
  { author, authorRow, place }: { author: string; authorRow: string; place: Exclude<Place, 'profile'> },
): Expression<SqlBool> {
  const suspended = sql.ref(`${authorRow}.suspended_at`);
  const hidden = [blockedEitherWay(db, viewerId, author)];
  if (place !== 'content') hidden.push(silencedUnfollowed(db, viewerId, author, authorRow));
  if (place === 'feed') hidden.push(mutedBy(db, viewerId, author));
  return sql<SqlBool>`(${suspended} is null and not (${sql.join(hidden, sql` or `)}))`;
}

/**
 * Whom `followerId`'s home feed shows of the people they follow: not the muted, not the suspended
 * (a block removed the follows already). Both lists are small and read once per statement.
 */
export function shownFollowees(db: Queryable, followerId: string) {
  return db
    .selectFrom('follows')
    .select('follows.followee_id')
    .where('follows.follower_id', '=', followerId)
    .where(
      'follows.followee_id',
      'not in',
      db.selectFrom('mutes').select('mutes.target_id').where('mutes.user_id', '=', followerId),
    )
    .where(
      'follows.followee_id',
      'not in',
      db.selectFrom('users').select('users.id').where('users.suspended_at', 'is not', null),
    );
}
