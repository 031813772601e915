/**
 * A community's traffic for `npm run bench` (issue 31): many signed-in readers, each request a
 * random reader and a random page, with writes among the reads. The classes and their shares are
 * the issue's; docs/benchmarks/log/2026-11-27.md, "A community's mix", has the figures.
 */
import sharp from 'sharp';
import { Rng, Zipf } from '../scripts/seed/random';
import type { openDatabase } from '../server/db/database';
import { newId } from '../server/domain/ids';
import type { MixEntry } from './wrk';

type Db = ReturnType<typeof openDatabase>['kysely'];

/** What the classes draw from, read from the database before the server starts. */
export interface CommunityData {
  /** Readers' emails, signed in up front. */
  readers: string[];
  /** The one account that writes new posts. */
  writer: string;
  /** The 100 most used tags, most used first. */
  tags: string[];
  /** 500 creators' usernames, most prolific first. */
  creators: string[];
  /** The 2,000 newest posts, newest first. */
  recent: string[];
  /** Older posts, in no order. */
  older: string[];
}

/** Writes and reads land only where every reader may look: nobody in a block, either side, is used. */
const inBlocks = (k: Db) =>
  k.selectFrom('blocks').select('user_id as id').union(k.selectFrom('blocks').select('target_id as id'));

/**
 * Whether the seed's posts have audiences (issue 70). Readers open by its address a post anyone may
 * see (public or unlisted): one for followers answers most of them 404. A seed made by the code
 * before the audiences has no such column: every post is public there.
 */
export async function hasAudiences(k: Db): Promise<boolean> {
  return k
    .selectFrom('posts')
    .select('audience')
    .limit(1)
    .execute()
    .then(
      () => true,
      () => false,
    );
}

/** The posts anyone may open by their address, as `hasAudiences` says. */
export const OPEN_TO_ANYONE = ['public', 'unlisted'] as const;

export async function communityData(k: Db, readerCount: number): Promise<CommunityData> {
  const audiences = await hasAudiences(k);
  const unblockedUsers = () => k.selectFrom('users').where('id', 'not in', inBlocks(k));
  const unblockedPosts = () =>
    k
      .selectFrom('posts')
      .select('id')
      .where('creator_id', 'not in', inBlocks(k))
      .$if(audiences, (q) => q.where('audience', 'in', OPEN_TO_ANYONE))
      .orderBy('id', 'desc');
  // The bench's viewer (the first user) blocks and mutes people: the readers come after it.
  const people = await unblockedUsers()
    .select('email')
    .orderBy('id')
    .offset(1)
    .limit(readerCount + 1)
    .execute();
  const tags = await k
    .selectFrom('post_tags')
    .select(['tag', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('tag')
    .orderBy('n', 'desc')
    .limit(100)
    .execute();
  const creators = await unblockedUsers().select('username').orderBy('posts_count', 'desc').limit(500).execute();
  const recent = await unblockedPosts().limit(2000).execute();
  // Every 97th post below the recent ones: spread over the whole history, the same on every run.
  const older = await unblockedPosts()
    .where('id', '<', recent[recent.length - 1].id)
    .execute();
  return {
    readers: people.slice(0, readerCount).map((p) => p.email),
    writer: people[readerCount].email,
    tags: tags.map((t) => t.tag),
    creators: creators.map((c) => c.username),
    recent: recent.map((r) => r.id),
    older: older.filter((_, i) => i % 97 === 0).map((r) => r.id),
  };
}

/** What the server must be asked once up, for the classes: deep cursors and the writer's picture. */
export interface CommunityLive {
  /** Cursors of everyone's list, each more than 1,200 posts down. */
  deepCursors: string[];
  /** A post image the writer uploaded, for its new posts. */
  writerImage: string;
}

export interface CommunityClass {
  name: string;
  /** Percent of the mix. */
  share: number;
  kind: 'read' | 'write';
  draw(rng: Rng): MixEntry;
}

export function communityClasses(data: CommunityData, live: CommunityLive): CommunityClass[] {
  const recentZipf = new Zipf(data.recent.length, 1);
  const tagZipf = new Zipf(data.tags.length, 1);
  const recentPost = (rng: Rng) => data.recent[recentZipf.sample(rng)];
  const get = (path: string): MixEntry => ({ method: 'GET', path });
  return [
    // Issue 73: Explore's 5% and saves' 1% are taken from the home feed's and everyone's shares.
    { name: 'home feed, first page', share: 27, kind: 'read', draw: () => get('/api/posts?feed=following') },
    { name: 'everyone, first page', share: 12, kind: 'read', draw: () => get('/api/posts?feed=all') },
    { name: 'explore', share: 5, kind: 'read', draw: () => get('/api/explore') },
    {
      name: 'everyone, a deep page',
      share: 5,
      kind: 'read',
      draw: (rng) => get(`/api/posts?feed=all&cursor=${rng.pick(live.deepCursors)}`),
    },
    {
      name: "a tag's first page",
      share: 12,
      kind: 'read',
      draw: (rng) => get(`/api/posts/tagged?tags=${encodeURIComponent(data.tags[tagZipf.sample(rng)])}`),
    },
    {
      name: "a profile's posts",
      share: 10,
      kind: 'read',
      draw: (rng) => get(`/api/users/${encodeURIComponent(rng.pick(data.creators))}/posts`),
    },
    { name: 'a recent post', share: 10, kind: 'read', draw: (rng) => get(`/api/posts/${recentPost(rng)}`) },
    { name: 'an older post', share: 4, kind: 'read', draw: (rng) => get(`/api/posts/${rng.pick(data.older)}`) },
    {
      name: "a post's comments",
      share: 6,
      kind: 'read',
      draw: (rng) => get(`/api/posts/${recentPost(rng)}/comments`),
    },
    {
      name: "a user's profile",
      share: 4,
      kind: 'read',
      draw: (rng) => get(`/api/users/${encodeURIComponent(rng.pick(data.creators))}`),
    },
    {
      name: 'like toggle on a recent post',
      share: 2.5,
      kind: 'write',
      draw: (rng) => ({ method: 'PATCH', path: `/api/posts/${recentPost(rng)}/like`, body: '{}' }),
    },
    {
      name: 'save a recent post',
      share: 1,
      kind: 'write',
      // Saving again changes nothing: the write is the same whether the reader saved it before or not.
      draw: (rng) => ({ method: 'PUT', path: `/api/posts/${recentPost(rng)}/save`, body: '{}' }),
    },
    {
      name: 'comment on a recent post',
      share: 1.1,
      kind: 'write',
      draw: (rng) => ({
        method: 'POST',
        path: `/api/posts/${recentPost(rng)}/comments`,
        body: JSON.stringify({ message: 'A comment from the community bench' }),
      }),
    },
    {
      name: 'new post (one writer)',
      share: 0.4,
      kind: 'write',
      draw: (rng) => ({
        method: 'POST',
        path: '/api/posts/create',
        body: JSON.stringify({
          message: 'A post from the community bench',
          image: live.writerImage,
          tags: [data.tags[tagZipf.sample(rng)]],
        }),
        writer: true,
      }),
    },
  ];
}

/** Requests drawn per row: wrk picks among them (and a reader) at random for each request. */
const DRAWS = 20_000;

/** `count` requests of the classes, each drawn with its share of the mix. */
export function drawMix(classes: CommunityClass[], seed: number, count = DRAWS): MixEntry[] {
  const rng = new Rng(seed);
  const total = classes.reduce((sum, c) => sum + c.share, 0);
  const entries: MixEntry[] = [];
  for (let i = 0; i < count; i++) {
    let point = rng.next() * total;
    const picked = classes.find((c) => (point -= c.share) < 0) ?? classes[classes.length - 1];
    entries.push(picked.draw(rng));
  }
  return entries;
}

/** A small real JPEG for the writer's upload (the upload path decodes it like any photo). */
export const writerPicture = () =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .jpeg()
    .toBuffer();

/** Blocks and mutes of the viewer (issue 23): every list the viewer reads filters them. */
const VIEWER_BLOCKS = 50;
const VIEWER_MUTES = 50;

/**
 * `npm run bench`'s one viewer (the first user), with its blocks and mutes given (`blocksAndMutes`):
 * the reader of the single-page rows, and of the in-process benches that read as it does.
 */
export async function benchViewer(k: ReturnType<typeof openDatabase>['kysely']) {
  const viewer = await k
    .selectFrom('users')
    .select(['id', 'email', 'username'])
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  await blocksAndMutes(k, viewer.id);
  return viewer;
}

/**
 * Gives the viewer its blocks and mutes, once (later runs find them): the most prolific users
 * with no follow either way, so the follows and counters of D1 stay as seeded, and the feeds meet
 * as many hidden posts as the dataset allows.
 */
export async function blocksAndMutes(k: ReturnType<typeof openDatabase>['kysely'], viewerId: string): Promise<void> {
  const have = await k.selectFrom('blocks').select('id').where('user_id', '=', viewerId).limit(1).execute();
  if (have.length > 0) return;
  const targets = await k
    .selectFrom('users')
    .select('id')
    .where('id', '!=', viewerId)
    .where('id', 'not in', k.selectFrom('follows').select('followee_id').where('follower_id', '=', viewerId))
    .where('id', 'not in', k.selectFrom('follows').select('follower_id').where('followee_id', '=', viewerId))
    .orderBy('posts_count', 'desc')
    .limit(VIEWER_BLOCKS + VIEWER_MUTES)
    .execute();
  const now = new Date().toISOString();
  const rows = (from: number, to: number) =>
    targets.slice(from, to).map((t) => ({ id: newId(), user_id: viewerId, target_id: t.id, created_at: now }));
  await k.transaction().execute(async (trx) => {
    await trx.insertInto('blocks').values(rows(0, VIEWER_BLOCKS)).execute();
    await trx
      .insertInto('mutes')
      .values(rows(VIEWER_BLOCKS, VIEWER_BLOCKS + VIEWER_MUTES))
      .execute();
  });
}
