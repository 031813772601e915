/** Writes a Plan: users, the shared images, posts with tags, follows, reactions, comments. */
import { hashPassword } from '../../server/auth/passwords';
import type { Audience } from '../../lib/audience';
import type { Config } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { mediaStorageFor } from '../../server/media/storageFor';
import { mediaService } from '../../server/media/service';
import { IdMinter, iso } from './ids';
import { makePicture } from './images';
import type { Plan } from './plan';
import { Progress } from './progress';
import type { Rng } from './random';
import { openSink } from './sink';
import { FIRST_NAMES, authorSpelling, bio, commentMessage, postMessage, tagNames } from './text';

export const SEED_PASSWORD = 'posts-seed-password';

const USER_COLUMNS = [
  'id',
  'username',
  'username_lower',
  'email',
  'password_hash',
  'role',
  'avatar',
  'banner',
  'description',
  'followers_count',
  'following_count',
  'posts_count',
  'approve_followers',
  'created_at',
  'updated_at',
] as const;
const POST_COLUMNS = [
  'id',
  'creator_id',
  'message',
  'image',
  'media_id',
  'tags',
  'likes_count',
  'dislikes_count',
  'comments_count',
  'audience',
  'image_count',
  'created_at',
  'updated_at',
] as const;
const POST_IMAGE_COLUMNS = ['post_id', 'position', 'image', 'media_id', 'alt'] as const;
const FOLLOW_COLUMNS = ['id', 'follower_id', 'followee_id', 'created_at'] as const;
const REACTION_COLUMNS = ['post_id', 'user_id', 'kind', 'created_at'] as const;
const COMMENT_COLUMNS = ['id', 'post_id', 'user_id', 'message', 'likes_count', 'dislikes_count', 'created_at'] as const;

export const seedUsername = (i: number) => `${FIRST_NAMES[i % FIRST_NAMES.length]}.${i + 1}`;
export const seedEmail = (i: number) => `${seedUsername(i)}@example.com`;

export interface Written {
  rows: Record<string, number>;
  firstEmail: string;
}

/**
 * Who may see what (issue 70): the share of posts that are not public and of accounts that approve
 * their followers; both 0 in D1. Drawn from a generator of their own, so the rest of the dataset is
 * D1's whatever they are.
 */
export interface PrivacyShares {
  nonPublic: number;
  approving: number;
  rng: Rng;
}

/** A non-public post's audience: mostly for followers, as on Instagram's private accounts. */
function nonPublicAudience(rng: Rng): Audience {
  const draw = rng.next();
  return draw < 0.6 ? 'followers' : draw < 0.85 ? 'unlisted' : 'mentioned';
}

/**
 * The share of posts that are albums (issue 71) and the generator that draws them and their sizes,
 * 2 to 10 photos, from the shared pictures; 0 in D1, whose posts are one photo each.
 */
export interface AlbumShare {
  share: number;
  rng: Rng;
}

const ALBUM_SIZES = { min: 2, max: 10 };

export async function writePlan(
  config: Config,
  plan: Plan,
  options: { rng: Rng; images: number; privacy?: PrivacyShares; albums?: AlbumShare },
): Promise<Written> {
  const { rng, privacy } = options;
  const db = openDatabase(config.databaseUrl);
  await migrateToLatest(db.kysely);
  const existing = await db.kysely
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(existing.n) > 0) {
    await db.close();
    throw new Error(
      'The database already has users: seed an empty database (set DATA_DIR or DATABASE_URL to a new one).',
    );
  }
  const sink = openSink(config.databaseUrl);
  const rows: Record<string, number> = {};
  let failed = true;
  try {
    const passwordHash = await hashPassword(SEED_PASSWORD);

    const userIds: string[] = [];
    const minter = new IdMinter(rng);
    let progress = new Progress('users', plan.sizes.users);
    for (let u = 0; u < plan.sizes.users; u++) {
      const { id, ms } = minter.mint(plan.userTimes[u]);
      userIds.push(id);
      const username = seedUsername(u);
      await sink.insert('users', USER_COLUMNS, [
        id,
        username,
        username.toLowerCase(),
        seedEmail(u),
        passwordHash,
        'member',
        null,
        null,
        bio(rng),
        plan.followers[u],
        plan.following[u],
        plan.postsCount[u],
        privacy && privacy.rng.next() < privacy.approving ? 1 : 0,
        iso(ms),
        iso(ms),
      ]);
      progress.tick();
    }
    await sink.flush();
    progress.finish();
    rows.users = userIds.length;

    // The shared pictures go through the real upload path, so posts get real media rows,
    // variants on disk and thumbhashes, like uploads made through the API.
    progress = new Progress('images', options.images);
    const media = mediaService({ db: db.kysely, storage: mediaStorageFor(config) });
    const pictures: { url: string; mediaId: string }[] = [];
    for (let i = 0; i < options.images; i++) {
      const bytes = await makePicture(rng, {
        width: 1600,
        height: i % 3 === 0 ? 1600 : 1200,
        style: (['shapes', 'waves', 'rings'] as const)[i % 3],
      });
      const uploaded = await media.upload(userIds[0], 'post', bytes);
      pictures.push({ url: uploaded.secure_url, mediaId: uploaded.public_id });
      progress.tick();
    }
    progress.finish();
    rows.images = pictures.length;

    const tags = tagNames(plan.sizes.tags);
    const postIds: string[] = [];
    const postMinter = new IdMinter(rng);
    progress = new Progress('posts', plan.postTimes.length);
    let tagRows = 0;
    let albumRows = 0;
    const { albums } = options;
    for (let p = 0; p < plan.postTimes.length; p++) {
      const { id, ms } = postMinter.mint(plan.postTimes[p]);
      postIds.push(id);
      const ranks = plan.postTags.subarray(plan.postTagStart[p], plan.postTagStart[p + 1]);
      const spelled = Array.from(ranks, (t) => authorSpelling(rng, tags[t]));
      const picture = pictures[rng.int(pictures.length)];
      const photoCount =
        albums && albums.rng.next() < albums.share
          ? ALBUM_SIZES.min + albums.rng.int(ALBUM_SIZES.max - ALBUM_SIZES.min + 1)
          : 1;
      await sink.insert('posts', POST_COLUMNS, [
        id,
        userIds[plan.postCreator[p]],
        postMessage(rng),
        picture.url,
        picture.mediaId,
        JSON.stringify(spelled),
        plan.likesCount[p],
        plan.dislikesCount[p],
        plan.commentsCount[p],
        privacy && privacy.rng.next() < privacy.nonPublic ? nonPublicAudience(privacy.rng) : 'public',
        photoCount,
        iso(ms),
        iso(ms),
      ]);
      // An album's whole list, its first photo the posts row's; a one-photo post reads its row alone.
      if (photoCount > 1) {
        const first = pictures.indexOf(picture);
        for (let position = 0; position < photoCount; position++) {
          const photo = pictures[(first + position) % pictures.length];
          await sink.insert('post_images', POST_IMAGE_COLUMNS, [
            id,
            position,
            photo.url,
            photo.mediaId,
            `Photo ${position + 1}`,
          ]);
          albumRows++;
        }
      }
      for (const t of ranks) {
        await sink.insert('post_tags', ['post_id', 'tag'], [id, tags[t]]);
        tagRows++;
      }
      progress.tick();
    }
    await sink.flush();
    progress.finish();
    rows.posts = postIds.length;
    rows['post tags'] = tagRows;
    if (albumRows > 0) rows['album photos'] = albumRows;

    const followMinter = new IdMinter(rng);
    progress = new Progress('follows', plan.followFrom.length);
    for (let f = 0; f < plan.followFrom.length; f++) {
      const { id, ms } = followMinter.mint(plan.followTimes[f]);
      await sink.insert('follows', FOLLOW_COLUMNS, [
        id,
        userIds[plan.followFrom[f]],
        userIds[plan.followTo[f]],
        iso(ms),
      ]);
      progress.tick();
    }
    await sink.flush();
    progress.finish();
    rows.follows = plan.followFrom.length;

    const until =
      plan.postTimes.length > 0
        ? Math.max(plan.postTimes[plan.postTimes.length - 1], plan.userTimes[plan.userTimes.length - 1])
        : 0;
    progress = new Progress('reactions', plan.reactionPost.length);
    for (let r = 0; r < plan.reactionPost.length; r++) {
      const post = plan.reactionPost[r];
      const at = plan.postTimes[post] + Math.floor(rng.next() * (until - plan.postTimes[post]));
      await sink.insert('post_reactions', REACTION_COLUMNS, [
        postIds[post],
        userIds[plan.reactionUser[r]],
        plan.reactionDislike[r] ? 'dislike' : 'like',
        iso(at),
      ]);
      progress.tick();
    }
    await sink.flush();
    progress.finish();
    rows.reactions = plan.reactionPost.length;

    const commentMinter = new IdMinter(rng);
    progress = new Progress('comments', plan.commentTimes.length);
    for (let c = 0; c < plan.commentTimes.length; c++) {
      const { id, ms } = commentMinter.mint(plan.commentTimes[c]);
      await sink.insert('comments', COMMENT_COLUMNS, [
        id,
        postIds[plan.commentPost[c]],
        userIds[plan.commentUser[c]],
        commentMessage(rng),
        0,
        0,
        iso(ms),
      ]);
      progress.tick();
    }
    await sink.flush();
    progress.finish();
    rows.comments = plan.commentTimes.length;
    failed = false;
  } finally {
    // After a failure, close without writing or checking more, so the first error is the one shown.
    await (failed ? sink.abort() : sink.close());
    await db.close();
  }
  return { rows, firstEmail: seedEmail(0) };
}
