/**
 * What reads and writes of posts check first (`posts/access.ts`): the post exists and the viewer may
 * see it (else the same 404), whether the reader's lists show it, and whether a visitor may. Rows
 * straight in the database; the rule itself is tested in visibility.test.ts.
 */
import { NotFoundError } from '../../server/domain/errors';
import { newId } from '../../server/domain/ids';
import { stepsOn } from '../../server/db/steps';
import type { Audience } from '../../lib/audience';
import {
  NO_VIEWER,
  contentShows,
  feedShows,
  isPubliclyVisible,
  postReaders,
  profileShows,
  requirePost,
  requireVisiblePost,
  requireVisiblePostSteps,
} from '../../server/posts/access';
import { postsRepository } from '../../server/posts/repository';
import type { HiddenAuthors } from '../../server/safety/hiddenAuthors';
import type { Reader } from '../../server/posts/access';
import { userRow } from './factories';
import { createTestDatabase } from './testDatabase';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

const now = () => new Date().toISOString();

async function person(fields: { suspended?: boolean; silenced?: boolean; domain?: string } = {}) {
  const id = newId();
  const row = userRow(`p${id.replace(/-/g, '').slice(-12)}`, {
    id,
    suspended_at: fields.suspended ? now() : null,
  });
  await db.kysely
    .insertInto('users')
    .values({ ...row, domain_silenced: fields.silenced ? 1 : 0 })
    .execute();
  return id;
}

async function postBy(creatorId: string, uri: string | null = null, audience: Audience = 'public'): Promise<string> {
  const id = newId();
  await db.kysely
    .insertInto('posts')
    .values({
      id,
      creator_id: creatorId,
      message: 'm',
      image: '/i.png',
      media_id: null,
      tags: '[]',
      uri,
      audience,
      created_at: now(),
      updated_at: now(),
    })
    .execute();
  return id;
}

const block = (userId: string, targetId: string) =>
  db.kysely
    .insertInto('blocks')
    .values({ id: newId(), user_id: userId, target_id: targetId, created_at: now() })
    .execute();

/** Resolves the thrown error's class and message, or the answer. */
async function outcome<T>(run: () => Promise<T>): Promise<T | string> {
  try {
    return await run();
  } catch (error) {
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'PostNotFound' });
    return (error as Error).message;
  }
}

const nobodyHidden: HiddenAuthors = {
  blocked: new Set(),
  blockedByReader: new Set(),
  blockingReader: new Set(),
  muted: new Set(),
  followedSilenced: new Set(),
  followedMuted: new Set(),
};

/** A reader who follows nobody, with these people hidden. */
const readerHiding = (hidden: HiddenAuthors): Reader => ({ id: newId(), nameKey: '', hidden, follows: () => false });

describe('a post, before a read or a write', () => {
  it('is its id and creator, or "Post not found" for an unknown id or one that is not a UUID', async () => {
    const posts = postsRepository(db.kysely);
    const ann = await person();
    const id = await postBy(ann);
    expect(await requirePost(posts, id)).toEqual({ id, creator_id: ann });
    expect(await outcome(() => requirePost(posts, newId()))).toBe('Post not found');
    // Not a UUID: refused before the database is asked (PostgreSQL would refuse the cast).
    const asked: string[] = [];
    const counting = { findPostOwner: async (postId: string) => (asked.push(postId), posts.findPostOwner(postId)) };
    expect(await outcome(() => requirePost(counting, 'not-a-uuid'))).toBe('Post not found');
    expect(asked).toEqual([]);
  });

  it('is found by whoever may see its creator, and "Post not found" for the others, in a write\'s steps too', async () => {
    const posts = postsRepository(db.kysely);
    const [ann, bob, sam] = [await person(), await person(), await person({ suspended: true })];
    const [annsPost, samsPost] = [await postBy(ann), await postBy(sam)];
    const seen = (viewer: string, id: string) => outcome(() => requireVisiblePost({ posts }, viewer, id));
    const inSteps = (viewer: string, id: string) =>
      outcome(() => stepsOn(db.kysely, requireVisiblePostSteps(viewer, id)));

    for (const check of [seen, inSteps]) {
      expect(await check(bob, annsPost)).toEqual({ id: annsPost, creator_id: ann });
      expect(await check(bob, samsPost)).toBe('Post not found');
      expect(await check(bob, newId())).toBe('Post not found');
      expect(await check(bob, 'not-a-uuid')).toBe('Post not found');
    }
    await block(ann, bob);
    expect(await seen(bob, annsPost)).toBe('Post not found');
    expect(await inSteps(bob, annsPost)).toBe('Post not found');
    expect(await seen(ann, annsPost)).toEqual({ id: annsPost, creator_id: ann });
  });
});

describe("a post in the reader's lists", () => {
  it('shows by its creator: not a suspended one, not one hidden from the reader, a muted one outside the feeds only', async () => {
    const posts = postsRepository(db.kysely);
    const [reader, ann, sam, zed] = [
      await person(),
      await person(),
      await person({ suspended: true }),
      await person({ silenced: true }),
    ];
    // Unfiltered, as the cached lists read them before they filter.
    const row = async (creator: string) => (await posts.postsByIds(reader, [await postBy(creator)]))[0];
    const [annsRow, samsRow, zedsRow] = [await row(ann), await row(sam), await row(zed)];
    expect([
      contentShows(annsRow, readerHiding(nobodyHidden)),
      feedShows(annsRow, readerHiding(nobodyHidden), 'public'),
    ]).toEqual([true, true]);
    expect([
      contentShows(samsRow, readerHiding(nobodyHidden)),
      feedShows(samsRow, readerHiding(nobodyHidden), 'public'),
    ]).toEqual([false, false]);
    // A silenced domain's person: their post by its address, not in the feeds of those not following them.
    expect([
      contentShows(zedsRow, readerHiding(nobodyHidden)),
      feedShows(zedsRow, readerHiding(nobodyHidden), 'public'),
    ]).toEqual([true, false]);
    const follows = { ...nobodyHidden, followedSilenced: new Set([zed]) };
    expect(feedShows(zedsRow, readerHiding(follows), 'public')).toBe(true);

    const blocked = { ...nobodyHidden, blocked: new Set([ann]) };
    expect([contentShows(annsRow, readerHiding(blocked)), feedShows(annsRow, readerHiding(blocked), 'public')]).toEqual(
      [false, false],
    );
    const muted = { ...nobodyHidden, muted: new Set([ann]) };
    expect([contentShows(annsRow, readerHiding(muted)), feedShows(annsRow, readerHiding(muted), 'public')]).toEqual([
      true,
      false,
    ]);
  });
});

describe('a post for visitors', () => {
  it('is public unless its creator is suspended or silenced, or it came from another server', async () => {
    const posts = postsRepository(db.kysely);
    const viewer = await person();
    const row = async (creator: string, uri: string | null = null) =>
      (await posts.postsByIds(viewer, [await postBy(creator, uri)]))[0];
    expect(isPubliclyVisible(await row(await person()))).toBe(true);
    expect(isPubliclyVisible(await row(await person({ suspended: true })))).toBe(false);
    expect(isPubliclyVisible(await row(await person({ silenced: true })))).toBe(false);
    expect(isPubliclyVisible(await row(await person(), `https://elsewhere.example/notes/${newId()}`))).toBe(false);
  });

  it('is public or unlisted, never for followers or the people named (issue 70)', async () => {
    const posts = postsRepository(db.kysely);
    const [viewer, ann] = [await person(), await person()];
    const shown = async (audience: Audience) =>
      isPubliclyVisible((await posts.postsByIds(viewer, [await postBy(ann, null, audience)]))[0]);
    expect([
      await shown('public'),
      await shown('unlisted'),
      await shown('followers'),
      await shown('mentioned'),
    ]).toEqual([true, true, false, false]);
  });
});

describe("a post's audience in the reader's lists (issue 70)", () => {
  it('by its address, in the home feed and in the public lists, for a follower, a stranger and the author', async () => {
    const posts = postsRepository(db.kysely);
    const [reader, ann] = [await person(), await person()];
    const row = async (audience: Audience) => (await posts.postsByIds(reader, [await postBy(ann, null, audience)]))[0];
    const rows = { public: await row('public'), unlisted: await row('unlisted'), followers: await row('followers') };
    const follower: Reader = { id: reader, nameKey: '', hidden: nobodyHidden, follows: (id) => id === ann };
    const stranger: Reader = { ...follower, follows: () => false };
    const author: Reader = { ...stranger, id: ann };
    const where = (r: Reader, audience: keyof typeof rows) => [
      contentShows(rows[audience], r),
      feedShows(rows[audience], r, 'home'),
      feedShows(rows[audience], r, 'public'),
      profileShows(rows[audience], r),
    ];
    expect(where(follower, 'public')).toEqual([true, true, true, true]);
    expect(where(follower, 'unlisted')).toEqual([true, true, false, true]);
    expect(where(follower, 'followers')).toEqual([true, true, false, true]);
    expect(where(stranger, 'followers')).toEqual([false, false, false, false]);
    expect(where(author, 'followers')).toEqual([true, true, false, true]);
    // Hidden from the reader (a block): nothing, and a profile's page is the database's to refuse.
    const blocked = { ...follower, hidden: { ...nobodyHidden, blocked: new Set([ann]) } };
    expect(where(blocked, 'public')).toEqual([false, false, false, null]);
  });

  it('a reader is made of the hidden people and, outside the public lists, the follow list and the muted followees', async () => {
    const hidden = { ...nobodyHidden, followedMuted: new Set(['muted-followee']) };
    const asked: string[] = [];
    const readerOf = postReaders({
      hiddenAuthors: { get: async () => hidden },
      homeFeed: {
        showsOf: async (readerId) => {
          asked.push(readerId);
          return (creatorId) => creatorId === 'followee';
        },
      },
    });
    const ann = { id: newId(), username: 'Ann' };
    const inPublic = await readerOf(ann, 'public');
    expect([inPublic.id, inPublic.nameKey, inPublic.hidden]).toEqual([ann.id, 'ann', hidden]);
    expect(inPublic.follows('followee')).toBe(false);
    expect(asked).toEqual([]);
    const anywhere = await readerOf(ann, 'any');
    expect(asked).toEqual([ann.id]);
    expect(['followee', 'muted-followee', 'stranger'].map((id) => anywhere.follows(id))).toEqual([true, true, false]);
    const nobody = await readerOf({ id: NO_VIEWER, username: 'whoever' }, 'any');
    expect([nobody.nameKey, nobody.follows('followee')]).toEqual(['', false]);
    expect(asked).toEqual([ann.id]);
  });
});
