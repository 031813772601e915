/**
 * One visibility rule (`mayShow`, server/safety/visibility.ts): every way a viewer and an author
 * can stand, in every place, through the SQL filters and through the in-memory ones, must agree
 * with it.
 */
import { cacheRegistry } from '../../server/cache/registry';
import { newId } from '../../server/domain/ids';
import {
  blocksAndMute,
  hiddenAuthorsCache,
  showsAcross,
  showsContent,
  showsInFeeds,
} from '../../server/safety/hiddenAuthors';
import { postsRepository } from '../../server/posts/repository';
import { safetyRepository } from '../../server/safety/repository';
import { hiddenFrom } from '../../server/safety/service';
import { type Place, type Standing, mayShow, shownFollowees, visibleAuthor } from '../../server/safety/visibility';
import { userRow } from './factories';
import { createTestDatabase } from './testDatabase';

// Rows straight in the database: no app is needed, and a mutation run sets this file up per mutant.
let t: { db: Awaited<ReturnType<typeof createTestDatabase>> };
beforeAll(async () => {
  t = { db: await createTestDatabase() };
});
afterAll(async () => t?.db.drop());

const bits = (n: number): number[][] =>
  n === 0 ? [[]] : bits(n - 1).flatMap((rest) => [0, 1].map((b) => [b, ...rest]));

/** Every standing: 64 ways (a follow across a block cannot be, but the rule must still hold). */
const STANDINGS: Standing[] = bits(6).map(
  ([suspended, viewerBlocksAuthor, authorBlocksViewer, viewerMutesAuthor, silenced, viewerFollowsAuthor]) => ({
    suspended: suspended === 1,
    viewerBlocksAuthor: viewerBlocksAuthor === 1,
    authorBlocksViewer: authorBlocksViewer === 1,
    viewerMutesAuthor: viewerMutesAuthor === 1,
    silenced: silenced === 1,
    viewerFollowsAuthor: viewerFollowsAuthor === 1,
  }),
);

const PLACES: Place[] = ['profile', 'content', 'across', 'feed'];

/** A viewer and an author standing so, straight in the database (sign-ups would only test argon2). */
async function pairStanding(standing: Standing): Promise<{ viewer: string; author: string }> {
  const k = t.db.kysely;
  const now = new Date().toISOString();
  const user = (suspended: boolean, silenced = false) => {
    const id = newId();
    const row = userRow(`v${id.replace(/-/g, '').slice(-12)}`, { id, suspended_at: suspended ? now : null });
    return { ...row, domain_silenced: silenced ? 1 : 0 };
  };
  const [viewer, author] = [user(false), user(standing.suspended, standing.silenced)];
  await k.insertInto('users').values([viewer, author]).execute();
  const relation = (user_id: string, target_id: string) => ({ id: newId(), user_id, target_id, created_at: now });
  if (standing.viewerBlocksAuthor) await k.insertInto('blocks').values(relation(viewer.id, author.id)).execute();
  if (standing.authorBlocksViewer) await k.insertInto('blocks').values(relation(author.id, viewer.id)).execute();
  if (standing.viewerMutesAuthor) await k.insertInto('mutes').values(relation(viewer.id, author.id)).execute();
  if (standing.viewerFollowsAuthor)
    await k
      .insertInto('follows')
      .values({ id: newId(), follower_id: viewer.id, followee_id: author.id, created_at: now })
      .execute();
  return { viewer: viewer.id, author: author.id };
}

async function postBy(creatorId: string): Promise<string> {
  const now = new Date().toISOString();
  const id = newId();
  await t.db.kysely
    .insertInto('posts')
    .values({
      id,
      creator_id: creatorId,
      message: 'm',
      image: '/i.png',
      media_id: null,
      tags: '[]',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

const describeStanding = (s: Standing) =>
  Object.entries(s)
    .filter(([, on]) => on)
    .map(([name]) => name)
    .join(' + ') || 'strangers';

describe('who may see whose content', () => {
  it.each(STANDINGS.map((s) => [describeStanding(s), s] as const))('%s', async (_, standing) => {
    const { viewer, author } = await pairStanding(standing);
    const k = t.db.kysely;
    const safety = safetyRepository(k);
    const expected = Object.fromEntries(PLACES.map((place) => [place, mayShow(standing, place)]));

    // SQL: the filter every list and read applies, and the check before a write.
    const sqlSees = async (place: 'content' | 'across' | 'feed') =>
      (await k
        .selectFrom('users')
        .select('users.id')
        .where('users.id', '=', author)
        .where(visibleAuthor(k, viewer, { author: 'users.id', authorRow: 'users', place }))
        .executeTakeFirst()) !== undefined;
    const authorRow = (await k.selectFrom('users').selectAll().where('id', '=', author).executeTakeFirstOrThrow())!;
    const bySql = {
      profile: !hiddenFrom(authorRow, viewer, await safety.relationsBetween(viewer, author)),
      content: await sqlSees('content'),
      across: await sqlSees('across'),
      feed: await sqlSees('feed'),
    };
    // The check before a write on the author's post (a like, a comment).
    const postId = await postBy(author);
    const mayWrite = (await postsRepository(k).findVisiblePostOwner(viewer, postId)) !== undefined;
    expect(mayWrite).toBe(expected.content);

    // Memory: the cached lists' filters, from the reader's hidden people.
    const hidden = await hiddenAuthorsCache(cacheRegistry(), safety.hiddenAuthorsOf, { ttlMs: 0 }).get(viewer);
    const rowAuthor = { id: author, suspendedAt: authorRow.suspended_at, silenced: authorRow.domain_silenced };
    const inMemory = {
      // The profile as users/profileRead.ts reads it.
      profile: !hiddenFrom(authorRow, viewer, blocksAndMute(hidden, author)),
      content: showsContent(hidden, rowAuthor),
      across: showsAcross(hidden, rowAuthor),
      feed: showsInFeeds(hidden, rowAuthor),
    };

    expect(bySql).toEqual(expected);
    expect(inMemory).toEqual(expected);
  });

  it('shows everyone their own content everywhere', async () => {
    const { viewer } = await pairStanding(STANDINGS[0]);
    const k = t.db.kysely;
    const own = await k
      .selectFrom('users')
      .select('users.id')
      .where('users.id', '=', viewer)
      .where(visibleAuthor(k, viewer, { author: 'users.id', authorRow: 'users', place: 'feed' }))
      .executeTakeFirst();
    expect(own?.id).toBe(viewer);
    expect(await postsRepository(k).findVisiblePostOwner(viewer, await postBy(viewer))).toBeDefined();
  });
});

describe('the rule, spelled out', () => {
  const strangers = STANDINGS[0];
  const shown = (standing: Partial<Standing>) =>
    PLACES.filter((place) => mayShow({ ...strangers, ...standing }, place)).join(' ');
  it('shows strangers everything, and hides as the standing says', () => {
    expect(shown({})).toBe('profile content across feed');
    expect(shown({ suspended: true })).toBe('');
    expect(shown({ authorBlocksViewer: true })).toBe('');
    expect(shown({ viewerBlocksAuthor: true })).toBe('profile');
    expect(shown({ viewerMutesAuthor: true })).toBe('profile content across');
    expect(shown({ silenced: true })).toBe('profile content');
    expect(shown({ silenced: true, viewerFollowsAuthor: true })).toBe('profile content across feed');
  });
});

describe('whom a home feed shows of the people its reader follows', () => {
  it('the people followed, but not the muted nor the suspended', async () => {
    const { viewer, author: followed } = await pairStanding({ ...STANDINGS[0], viewerFollowsAuthor: true });
    const { author: muted } = await pairStanding({
      ...STANDINGS[0],
      viewerFollowsAuthor: true,
      viewerMutesAuthor: true,
    });
    const { author: suspended } = await pairStanding({ ...STANDINGS[0], viewerFollowsAuthor: true, suspended: true });
    const k = t.db.kysely;
    const follow = (followee_id: string) =>
      k
        .insertInto('follows')
        .values({ id: newId(), follower_id: viewer, followee_id, created_at: new Date().toISOString() })
        .execute();
    const mute = (target_id: string) =>
      k
        .insertInto('mutes')
        .values({ id: newId(), user_id: viewer, target_id, created_at: new Date().toISOString() })
        .execute();
    await follow(muted);
    await mute(muted);
    await follow(suspended);
    // Someone else's follow and mute: not the reader's.
    const { viewer: other } = await pairStanding({
      ...STANDINGS[0],
      viewerFollowsAuthor: true,
      viewerMutesAuthor: true,
    });
    await k
      .insertInto('mutes')
      .values({ id: newId(), user_id: other, target_id: followed, created_at: new Date().toISOString() })
      .execute();
    const rows = await shownFollowees(k, viewer).execute();
    expect(rows.map((row) => row.followee_id)).toEqual([followed]);
  });
});
