/**
 * What Explore reads (issue 73): the trends' window — public posts of the last days by people who
 * are discoverable and not suspended, found by the posts' primary key (UUIDv7 ids are time-ordered),
 * their tags, likes and comments by each post's index — what an admin hid, and people to suggest.
 * Nothing here reads all posts: every read is bounded by the window or a limit.
 */
import { bindQueries } from '../db/repository';
import type { Queryable } from '../db/schema';
import { idFloorAt, newId } from '../domain/ids';
import type { Interaction, WindowPost } from './scores';

/** Post ids asked about per query for their tags, likes and comments. */
const CHUNK = 500;

const chunks = <T>(values: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(values.length / CHUNK) }, (_, i) => values.slice(i * CHUNK, (i + 1) * CHUNK));

/**
 * The suspended (by an admin or with their domain), whose likes and comments count no more: a few,
 * taken out in code. As a subquery beside `post_id IN (…)`, SQLite drove each chunk's read from a
 * scan of every user (1.4 s a chunk, 21 s a refresh on D1; docs/benchmarks/log/2026-12-07.md).
 */
async function suspendedPeople(db: Queryable): Promise<Set<string>> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb.or([eb('suspended_at', 'is not', null), eb('domain_suspended', '=', 1)]))
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * The public posts made since `since` (epoch ms), newest first, at most `limit`, of discoverable
 * people, with their tags, and the likes and comments on them; hidden posts left out (hidden tags
 * are the trends' to leave out: a hidden tag's posts may still trend).
 */
async function window(db: Queryable, since: number, limit: number) {
  const rows = await db
    .selectFrom('posts')
    .innerJoin('users', 'users.id', 'posts.creator_id')
    .select(['posts.id', 'posts.creator_id', 'posts.created_at', 'users.username_lower'])
    .where('posts.id', '>=', idFloorAt(since))
    .where('posts.audience', '=', 'public')
    .where('users.discoverable', '=', 1)
    .where('users.suspended_at', 'is', null)
    .where('users.domain_suspended', '=', 0)
    .where('posts.id', 'not in', db.selectFrom('explore_hidden').select('subject').where('kind', '=', 'post'))
    .orderBy('posts.id', 'desc')
    .limit(limit)
    .execute();
  const posts = new Map<string, WindowPost & { tags: string[] }>(
    rows.map((r) => [r.id, { id: r.id, creatorId: r.creator_id, createdAt: Date.parse(r.created_at), tags: [] }]),
  );
  const interactions: Interaction[] = [];
  const suspended = await suspendedPeople(db);
  for (const ids of chunks([...posts.keys()])) {
    const tags = await db.selectFrom('post_tags').select(['post_id', 'tag']).where('post_id', 'in', ids).execute();
    for (const t of tags) posts.get(t.post_id)?.tags.push(t.tag);
    const likes = await db
      .selectFrom('post_reactions')
      .select(['post_id', 'user_id'])
      .where('post_id', 'in', ids)
      .where('kind', '=', 'like')
      .execute();
    for (const l of likes)
      if (!suspended.has(l.user_id)) interactions.push({ postId: l.post_id, userId: l.user_id, kind: 'like' });
    const comments = await db
      .selectFrom('comments')
      .select(['post_id', 'user_id'])
      .distinct()
      .where('post_id', 'in', ids)
      .execute();
    for (const c of comments)
      if (!suspended.has(c.user_id)) interactions.push({ postId: c.post_id, userId: c.user_id, kind: 'comment' });
  }
  // Each author once, the most recent poster first.
  const authors = new Map<string, { id: string; key: string }>();
  for (const r of rows)
    if (!authors.has(r.creator_id)) authors.set(r.creator_id, { id: r.creator_id, key: r.username_lower });
  return { posts: [...posts.values()], interactions, authors: [...authors.values()] };
}

/** The tag keys an admin hid from the trends. */
async function hiddenTags(db: Queryable): Promise<string[]> {
  const rows = await db.selectFrom('explore_hidden').select('subject').where('kind', '=', 'tag').execute();
  return rows.map((r) => r.subject);
}

/** The row hiding this post or tag, if any. */
async function hiddenId(db: Queryable, kind: 'post' | 'tag', subject: string): Promise<string | null> {
  const row = await db
    .selectFrom('explore_hidden')
    .select('id')
    .where('kind', '=', kind)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Hides a post or a tag from the trends; the row's id (the one kept already, if it was). */
async function hide(db: Queryable, kind: 'post' | 'tag', subject: string, at: string): Promise<string> {
  await db
    .insertInto('explore_hidden')
    .values({ id: newId(), kind, subject, created_at: at })
    .onConflict((oc) => oc.columns(['kind', 'subject']).doNothing())
    .execute();
  return (await hiddenId(db, kind, subject))!;
}

/** Shows it again; whether it was hidden. */
async function unhide(db: Queryable, kind: 'post' | 'tag', subject: string): Promise<boolean> {
  const result = await db
    .deleteFrom('explore_hidden')
    .where('kind', '=', kind)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** What is hidden, newest first. */
async function hiddenList(db: Queryable, limit: number) {
  return db
    .selectFrom('explore_hidden')
    .select(['id', 'kind', 'subject', 'created_at'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Of these people (ids), those who may be suggested (discoverable, not suspended), in the same order,
 * with their lower-cased usernames: a reader's candidates, counted in memory (`homeFeed.followedByFollowees`).
 */
async function suggestable(db: Queryable, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username_lower'])
    .where('id', 'in', ids)
    .where('discoverable', '=', 1)
    .where('suspended_at', 'is', null)
    .where('domain_suspended', '=', 0)
    .execute();
  const keys = new Map(rows.map((r) => [r.id, r.username_lower]));
  return ids.flatMap((id) => {
    const key = keys.get(id);
    return key === undefined ? [] : [{ id, key }];
  });
}

export const exploreRepository = bindQueries({
  window,
  hiddenTags,
  hiddenId,
  hide,
  unhide,
  hiddenList,
  suggestable,
});

export type ExploreRepository = ReturnType<typeof exploreRepository>;
