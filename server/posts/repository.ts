/** Queries on posts, tags and post reactions. Every list is keyset-paged on the UUIDv7 id. */
import { type Insertable, type RawBuilder, type Updateable, sql } from 'kysely';
import { dialectOf } from '../db/database';
import type { Reaction } from '../../lib/types';
import { tagKey, usernameKey } from '../../lib/validation';
import { newestFirst, newestFirstByTime } from '../db/keyset';
import { prepared } from '../db/prepared';
import { mentionedNames } from '../mentions/repository';
import { bindQueries } from '../db/repository';
import type { PostsTable, Queryable } from '../db/schema';
import { stableInList, unplanned } from '../db/stablePlans';
import { type Steps, ask, stepsOn } from '../db/steps';
import { type Visibility, visibleAuthor } from '../safety/visibility';
import { audienceAllows } from '../domain/audience';
import { personColumns } from '../users/personRows';

/**
 * An album's photos (issue 71) as one JSON text, `[[image, media_id, alt, crop], ...]` in order,
 * read only for a post of more than one photo: a one-photo post's are its own columns, so its read
 * costs what it did (the CASE runs no subquery for it).
 */
function albumOf(db: Queryable): RawBuilder<string | null> {
  return dialectOf(db) === 'postgres'
    ? sql<
        string | null
      >`(CASE WHEN posts.image_count > 1 THEN (SELECT json_agg(json_build_array(i.image, i.media_id, i.alt, i.crop) ORDER BY i.position)::text FROM post_images i WHERE i.post_id = posts.id) END)`
    : sql<
        string | null
      >`(CASE WHEN posts.image_count > 1 THEN (SELECT json_group_array(json_array(i.image, i.media_id, i.alt, i.crop) ORDER BY i.position) FROM post_images i WHERE i.post_id = posts.id) END)`;
}

/**
 * Everything a Post response needs but its image's details (`imageInfos`, by `media_id`), joined
 * in one query; `viewerId` decides `my_reaction`. The viewer's reaction is a subquery, not a LEFT
 * JOIN: a bound value in its ON clause re-prepares the statement (`stablePlans.ts`); without
 * `withReaction` it is null (the post cache has the reader's reactions). `visibility` says what the
 * viewer may not see (`safety/visibility.ts`); the home feed filters by itself.
 */
export function selectPosts(db: Queryable, viewerId: string, visibility: Visibility = 'content', withReaction = true) {
  const query = db
    .selectFrom('posts')
    .innerJoin('users', 'users.id', 'posts.creator_id')
    .select((eb) => [
      'posts.id',
      'posts.message',
      'posts.image',
      'posts.tags',
      'posts.likes_count',
      'posts.dislikes_count',
      'posts.comments_count',
      'posts.created_at',
      'posts.updated_at',
      'posts.media_id',
      'posts.alt',
      'posts.sensitive',
      'posts.spoiler',
      'posts.crop',
      'posts.creator_id',
      'posts.url as original_url',
      'posts.uri as original_uri',
      'posts.audience',
      'posts.image_count',
      'posts.imported_from',
      albumOf(db).as('album'),
      'users.username as creator',
      'users.avatar as creator_image',
      'users.display_name as creator_name',
      'users.suspended_at as creator_suspended_at',
      'users.domain_silenced as creator_silenced',
      withReaction
        ? eb
            .selectFrom('post_reactions as mine')
            .select('mine.kind')
            .whereRef('mine.post_id', '=', 'posts.id')
            .where('mine.user_id', '=', viewerId)
            .as('my_reaction')
        : sql<Reaction | null>`null`.as('my_reaction'),
      mentionedNames(db, 'posts').as('mentions'),
    ]);
  if (visibility === 'all') return query;
  return query.where(
    visibleAuthor(db, viewerId, { author: 'posts.creator_id', authorRow: 'users', place: visibility }),
  );
}

export type PostListRow = Awaited<ReturnType<ReturnType<typeof selectPosts>['execute']>>[number];

const postsWithIds = (visibility: Visibility, withReaction = true) =>
  prepared((db, v: { viewerId: string; ids: string[] }) =>
    selectPosts(db, v.viewerId, visibility, withReaction).where('posts.id', 'in', v.ids).orderBy('posts.id', 'desc'),
  );
const POSTS_WITH_IDS = {
  all: postsWithIds('all'),
  allNoReaction: postsWithIds('all', false),
  publicFeed: prepared((db, v: { viewerId: string; ids: string[] }) =>
    selectPosts(db, v.viewerId, 'feed')
      .where('posts.id', 'in', v.ids)
      .where(audienceAllows(db, v.viewerId, 'public'))
      .orderBy('posts.id', 'desc'),
  ),
};

/**
 * The posts with these ids, unfiltered: the home feed decides itself what its reader sees, and
 * takes a missing post for a deleted one (`creator_suspended_at` says whom to skip).
 */
async function postsByIds(db: Queryable, viewerId: string, ids: string[], withReaction = true): Promise<PostListRow[]> {
  if (ids.length === 0) return [];
  return (withReaction ? POSTS_WITH_IDS.all : POSTS_WITH_IDS.allNoReaction)(db, { viewerId, ids: stableInList(ids) });
}

const postWithId = prepared((db, v: { viewerId: string; id: string }) =>
  selectPosts(db, v.viewerId)
    .where('posts.id', '=', unplanned(db, v.id))
    .where(audienceAllows(db, v.viewerId, 'content')),
);

async function findPost(db: Queryable, viewerId: string, id: string): Promise<PostListRow | undefined> {
  return (await postWithId(db, { viewerId, id }))[0];
}

const postOwner = prepared((db, v: { id: string }) =>
  db.selectFrom('posts').select(['id', 'creator_id']).where('id', '=', v.id),
);

async function findPostOwner(db: Queryable, id: string) {
  return (await postOwner(db, { id }))[0];
}

/**
 * One statement for what a write on a post checks first: it exists, and `viewerId` may see it (its
 * creator, and its audience).
 */
const visiblePostOwner = prepared((db, v: { viewerId: string; id: string }) =>
  db
    .selectFrom('posts')
    .innerJoin('users', 'users.id', 'posts.creator_id')
    .select(['posts.id', 'posts.creator_id'])
    .where('posts.id', '=', unplanned(db, v.id))
    .where((eb) =>
      eb.or([
        eb('posts.creator_id', '=', unplanned(db, v.viewerId)),
        eb.and([
          visibleAuthor(db, v.viewerId, { author: 'posts.creator_id', authorRow: 'users', place: 'content' }),
          audienceAllows(db, v.viewerId, 'content'),
        ]),
      ]),
    ),
);

/** The post's id and creator when `viewerId` may see it (not suspended, no block either way, its audience). */
async function findVisiblePostOwner(db: Queryable, viewerId: string, id: string) {
  return (await visiblePostOwner(db, { viewerId, id }))[0];
}

/** Of these people, those the post's audience admits (`audience.ts`): whom a mention in it may notify. */
const audienceAmong = prepared((db, v: { postId: string; userIds: string[] }) =>
  db
    .selectFrom('users as reader')
    .select('reader.id')
    .where('reader.id', 'in', v.userIds)
    .where((eb) =>
      eb.exists(
        db
          .selectFrom('posts')
          .select('posts.id')
          .where('posts.id', '=', v.postId)
          .where(audienceAllows(db, sql.ref<string>('reader.id'), 'content')),
      ),
    ),
);

/** `audienceAmong` as a step of a write: the ids kept in their order. */
export function* audienceAmongSteps(postId: string, userIds: string[]): Steps<string[]> {
  if (userIds.length === 0) return [];
  const admitted = new Set((yield* ask(audienceAmong, { postId, userIds: stableInList(userIds) })).map((r) => r.id));
  return userIds.filter((id) => admitted.has(id));
}

/** `findVisiblePostOwner` as a step of a write (`db/steps.ts`). */
export function* visiblePostOwnerSteps(viewerId: string, id: string) {
  return (yield* ask(visiblePostOwner, { viewerId, id }))[0];
}

const newestPosts = prepared((db, v: { viewerId: string; cursor: string | null; limit: number }) =>
  newestFirst(
    selectPosts(db, v.viewerId, 'feed')
      .where('posts.uri', 'is', null)
      .where(audienceAllows(db, v.viewerId, 'public')),
    'posts.id',
    v.cursor,
    v.limit,
  ),
);

/** Everyone's posts (this instance's own), newest first. */
const allPosts = (db: Queryable, viewerId: string, cursor: string | null, limit: number) =>
  newestPosts(db, { viewerId, cursor, limit });

/**
 * A profile's posts, by the creator's (lower-cased) username, in one statement. The creator must
 * be a scalar subquery, not a filter on the joined users row, for PostgreSQL to range-scan
 * `(creator_id, id)` (docs/benchmarks/log/2026-11-23.md#one-round-trip-per-list-2026-11-23). Whether the viewer
 * may see the creator is asked there too, once: a filter on each row would read every post of a
 * hidden creator to find none (docs/benchmarks/log/2026-11-24.md#a-blocked-profile-read-every-post-2026-11-24).
 */
const newestPostsOf = prepared(
  (db, v: { viewerId: string; usernameLower: string; cursor: string | null; limit: number }) => {
    const creator = db
      .selectFrom('users as creator')
      .select('creator.id')
      .where('creator.username_lower', '=', unplanned(db, v.usernameLower))
      .where(visibleAuthor(db, v.viewerId, { author: 'creator.id', authorRow: 'creator', place: 'content' }));
    return newestFirst(
      selectPosts(db, v.viewerId, 'all')
        .where('posts.creator_id', '=', creator)
        .where(audienceAllows(db, v.viewerId, 'content')),
      'posts.id',
      v.cursor,
      v.limit,
    );
  },
);

const postsByCreator = (db: Queryable, viewerId: string, username: string, cursor: string | null, limit: number) =>
  newestPostsOf(db, { viewerId, usernameLower: usernameKey(username), cursor, limit });

const newestWithTag = prepared((db, v: { tag: string; cursor: string | null; limit: number }) =>
  newestFirst(
    db.selectFrom('post_tags').select('post_id').where('tag', '=', unplanned(db, v.tag)),
    'post_id',
    v.cursor,
    v.limit,
  ),
);

/**
 * One tag: a range scan of the (tag, post_id) primary key joined to its posts, in one statement.
 * The cursor bounds `posts.id` as well, or PostgreSQL's merge join walks every newer post first
 * (docs/benchmarks/notes.md#caches-and-statements).
 */
const newestPostsWithTag = prepared(
  (db, v: { viewerId: string; tag: string; cursor: string | null; limit: number }) => {
    const withTag = selectPosts(db, v.viewerId, 'feed')
      .innerJoin('post_tags', 'post_tags.post_id', 'posts.id')
      .where('post_tags.tag', '=', unplanned(db, v.tag))
      .where(audienceAllows(db, v.viewerId, 'public'));
    return newestFirst(
      v.cursor ? withTag.where('posts.id', '<', v.cursor) : withTag,
      'post_tags.post_id',
      v.cursor,
      v.limit,
    );
  },
);

/** Where a list's posts come from: this instance's own, those kept from elsewhere, or both. */
export type PostOrigin = 'local' | 'remote' | 'any';

const fromOrigin = (row: PostListRow, origin: PostOrigin) =>
  origin === 'any' || (row.original_uri === null) === (origin === 'local');

/**
 * Posts carrying any of the (lower-cased) tags, newest first. Several tags, or one from one origin
 * (the client API's `local`): each tag's newest ids are a range scan of the (tag, post_id) primary
 * key, merged here, so no query sorts a whole tag; when the viewer may not see some of them (or
 * they come from elsewhere), the merge goes on below them until the page is full.
 */
async function taggedPosts(
  db: Queryable,
  viewerId: string,
  tags: string[],
  cursor: string | null,
  limit: number,
  origin: PostOrigin = 'any',
): Promise<PostListRow[]> {
  if (tags.length === 1 && origin === 'any') return newestPostsWithTag(db, { viewerId, tag: tags[0], cursor, limit });
  const found: PostListRow[] = [];
  let from = cursor;
  for (;;) {
    const perTag = await Promise.all(tags.map((tag) => newestWithTag(db, { tag, cursor: from, limit })));
    const merged = new Set<string>();
    for (const rows of perTag) for (const row of rows) merged.add(row.post_id);
    const ids = [...merged]
      .sort()
      .reverse()
      .slice(0, limit - found.length);
    if (ids.length === 0) return found;
    const shown = (await POSTS_WITH_IDS.publicFeed(db, { viewerId, ids: stableInList(ids) })).filter((row) =>
      fromOrigin(row, origin),
    );
    found.push(...shown);
    if (shown.length === ids.length || ids.length < limit - found.length + shown.length) return found;
    from = ids[ids.length - 1];
  }
}

/**
 * The ids of a list below the cursor, newest first, unfiltered: the post cache keeps them for every
 * reader and filters them for each (`postCache.ts`).
 */
/** "Everyone": this instance's own posts; those kept from elsewhere are in their followers' home feeds and tag pages. */
const newestIds = prepared((db, v: { cursor: string | null; limit: number }) =>
  newestFirst(db.selectFrom('posts').select('id').where('uri', 'is', null), 'id', v.cursor, v.limit),
);

const newestIdsOf = prepared((db, v: { usernameLower: string; cursor: string | null; limit: number }) => {
  const creator = db.selectFrom('users').select('id').where('username_lower', '=', unplanned(db, v.usernameLower));
  return newestFirst(db.selectFrom('posts').select('id').where('creator_id', '=', creator), 'id', v.cursor, v.limit);
});

const postIds = {
  everyone: async (db: Queryable, cursor: string | null, limit: number) =>
    (await newestIds(db, { cursor, limit })).map((row) => row.id),
  withTag: async (db: Queryable, tag: string, cursor: string | null, limit: number) =>
    (await newestWithTag(db, { tag, cursor, limit })).map((row) => row.post_id),
  byCreator: async (db: Queryable, username: string, cursor: string | null, limit: number) =>
    (await newestIdsOf(db, { usernameLower: usernameKey(username), cursor, limit })).map((row) => row.id),
};

// A new post's statements, built once (`prepared`): built and compiled on every call, they cost
// more than running them (docs/benchmarks/log/2026-11-27.md, "The writes' server CPU").
/** A new post's row: every column a write gives (the counters start at their defaults). */
type NewPost = Omit<Required<Insertable<PostsTable>>, 'likes_count' | 'dislikes_count' | 'comments_count'>;
const newPost = prepared((db, post: NewPost) => db.insertInto('posts').values(post));
const tagsRemoved = prepared((db, v: { postId: string }) => db.deleteFrom('post_tags').where('post_id', '=', v.postId));
const tagsAdded = prepared((db, v: { postId: string; tags: string[] }) =>
  db.insertInto('post_tags').values(v.tags.map((tag) => ({ post_id: v.postId, tag }))),
);

/** A post's columns as a write gives them (the counters start at their defaults). */
export type PostGiven = Omit<Insertable<PostsTable>, 'likes_count' | 'dislikes_count' | 'comments_count'>;

/**
 * Every column given, in one order: `prepared` keys a shape by its values' kinds, not their names,
 * so rows with different columns must not share one.
 */
const newPostRow = (post: PostGiven): NewPost => ({
  id: post.id,
  creator_id: post.creator_id,
  message: post.message,
  image: post.image,
  media_id: post.media_id ?? null,
  tags: post.tags,
  created_at: post.created_at,
  updated_at: post.updated_at,
  alt: post.alt ?? '',
  sensitive: post.sensitive ?? 0,
  spoiler: post.spoiler ?? '',
  crop: post.crop ?? '',
  uri: post.uri ?? null,
  url: post.url ?? null,
  audience: post.audience ?? 'public',
  image_count: post.image_count ?? 1,
  imported_from: post.imported_from ?? null,
});

/** One photo of a post as written (issue 71); its position is its place in the list. */
export interface PhotoRow {
  image: string;
  media_id: string | null;
  alt: string;
  crop: string;
  /** A post from elsewhere: the image's address in its Note. */
  source?: string | null;
}

const photosRemoved = prepared((db, v: { postId: string }) =>
  db.deleteFrom('post_images').where('post_id', '=', v.postId),
);
// One statement per list length: the columns as arrays of one value per photo.
const photosAdded = prepared(
  (
    db,
    v: {
      postId: string;
      positions: number[];
      images: string[];
      mediaIds: (string | null)[];
      alts: string[];
      crops: string[];
      sources: (string | null)[];
    },
  ) =>
    db.insertInto('post_images').values(
      v.images.map((image, i) => ({
        post_id: v.postId,
        position: v.positions[i],
        image,
        media_id: v.mediaIds[i],
        alt: v.alts[i],
        crop: v.crops[i],
        source: v.sources[i],
      })),
    ),
);

function* addPhotosSteps(postId: string, photos: PhotoRow[]): Steps<void> {
  yield* ask(photosAdded, {
    postId,
    positions: photos.map((_, i) => i),
    images: photos.map((p) => p.image),
    mediaIds: photos.map((p) => p.media_id),
    alts: photos.map((p) => p.alt),
    crops: photos.map((p) => p.crop),
    sources: photos.map((p) => p.source ?? null),
  });
}

/** A post's whole list of photos written anew, as steps of a write. */
export function* replacePhotosSteps(postId: string, photos: PhotoRow[]): Steps<void> {
  yield* ask(photosRemoved, { postId });
  yield* addPhotosSteps(postId, photos);
}

const replacePhotos = (db: Queryable, postId: string, photos: PhotoRow[]) =>
  stepsOn(db, replacePhotosSteps(postId, photos));

/**
 * A post's photos in order (issue 71); a post without album rows (written straight into the
 * database) has its own image as its one photo.
 */
async function photosOf(db: Queryable, postId: string): Promise<PhotoRow[]> {
  const rows = await db
    .selectFrom('post_images')
    .select(['image', 'media_id', 'alt', 'crop', 'source'])
    .where('post_id', '=', postId)
    .orderBy('position')
    .execute();
  if (rows.length > 0) return rows;
  return db.selectFrom('posts').select(['image', 'media_id', 'alt', 'crop']).where('id', '=', postId).execute();
}

/**
 * A new post's row, its tags and its photos (the posts row's own image alone when none are
 * given), as steps of a write (`db/steps.ts`).
 */
export function* insertPostSteps(post: PostGiven, tags: string[], photos?: PhotoRow[]): Steps<void> {
  yield* ask(newPost, newPostRow(post));
  yield* addTagsSteps(post.id, tags);
  const first = { image: post.image, media_id: post.media_id ?? null, alt: post.alt ?? '', crop: post.crop ?? '' };
  yield* addPhotosSteps(post.id, photos && photos.length > 0 ? photos : [first]);
}

function* addTagsSteps(postId: string, tags: string[]): Steps<void> {
  const keys = [...new Set(tags.map(tagKey))];
  if (keys.length > 0) yield* ask(tagsAdded, { postId, tags: keys });
}

async function replaceTags(db: Queryable, postId: string, tags: string[]): Promise<void> {
  await tagsRemoved(db, { postId });
  await stepsOn(db, addTagsSteps(postId, tags));
}

const updatePost = (
  db: Queryable,
  id: string,
  changes: Pick<
    Updateable<PostsTable>,
    'message' | 'image' | 'media_id' | 'tags' | 'alt' | 'sensitive' | 'spoiler' | 'crop' | 'audience' | 'image_count'
  > & {
    updated_at: string;
  },
) => db.updateTable('posts').set(changes).where('id', '=', id).execute();

/** True when this call removed the post: of several deletes racing, one only changes the counters. */
/** The post kept for a Note from elsewhere (issue 32). */
async function postIdWithUri(db: Queryable, uri: string): Promise<string | undefined> {
  return (await db.selectFrom('posts').select('id').where('uri', '=', uri).executeTakeFirst())?.id;
}

async function deletePost(db: Queryable, id: string): Promise<boolean> {
  return (await db.deleteFrom('posts').where('id', '=', id).returning('id').executeTakeFirst()) !== undefined;
}

/** False when the post is gone. On PostgreSQL the update also locks the post until the transaction ends. */
// The delta is 1 or -1: each is its own statement (`prepared` keys numbers into the SQL).
const commentsCountBy = prepared((db, v: { postId: string; delta: number }) =>
  db
    .updateTable('posts')
    .set({ comments_count: sql`comments_count + ${v.delta}` })
    .where('id', '=', v.postId)
    .returning('id'),
);

/** The post's comment count moved by `delta`; false when the post is gone. */
export function* addToCommentsCountSteps(postId: string, delta: number): Steps<boolean> {
  return (yield* ask(commentsCountBy, { postId, delta })).length > 0;
}

const addToCommentsCount = (db: Queryable, postId: string, delta: number) =>
  stepsOn(db, addToCommentsCountSteps(postId, delta));

/**
 * Per post, how many of its comments are by people blocked either way with the viewer: the
 * comments the viewer's list leaves out, so that the count the viewer reads can leave them out too.
 */
const blockedCommentCountsOf = prepared((db, v: { viewerId: string; postIds: string[] }) => {
  // From the blocked people's side (`comments_user_post_idx`): a busy post's comments are not read.
  const blocked = db
    .selectFrom('blocks')
    .select('blocks.target_id as id')
    .where('blocks.user_id', '=', v.viewerId)
    .union(db.selectFrom('blocks').select('blocks.user_id as id').where('blocks.target_id', '=', v.viewerId));
  return db
    .selectFrom(blocked.as('blocked'))
    .innerJoin('comments', 'comments.user_id', 'blocked.id')
    .select(['comments.post_id', (eb) => eb.fn.countAll<number | string>().as('hidden')])
    .where('comments.post_id', 'in', v.postIds)
    .groupBy('comments.post_id');
});

async function blockedCommentCounts(db: Queryable, viewerId: string, postIds: string[]): Promise<Map<string, number>> {
  const rows = await blockedCommentCountsOf(db, { viewerId, postIds: stableInList(postIds) });
  return new Map(rows.map((row) => [row.post_id, Number(row.hidden)]));
}

/** Each person's comments by post (`comments_user_post_idx`), for the cache of them (commentsByPerson.ts). */
function commentCountsOf(db: Queryable, personIds: string[]) {
  return db
    .selectFrom('comments')
    .select(['user_id', 'post_id', (eb) => eb.fn.countAll<number | string>().as('comments')])
    .where('user_id', 'in', stableInList(personIds))
    .groupBy(['user_id', 'post_id'])
    .execute();
}

/** The queries on posts, bound to a database or a transaction. */
/**
 * The people who like a post, as `viewerId` may come across them (blocks either way, suspensions and
 * unfollowed silenced people hidden),
 * keyset-paged on the liker's id (the reactions' key is the post and the user).
 */
function likersOf(db: Queryable, viewerId: string, postId: string, cursor: string | null, limit: number) {
  const query = db
    .selectFrom('post_reactions')
    .innerJoin('users', 'users.id', 'post_reactions.user_id')
    .select(['users.id', 'users.username'])
    .where('post_reactions.post_id', '=', unplanned(db, postId))
    .where('post_reactions.kind', '=', 'like')
    .where(visibleAuthor(db, viewerId, { author: 'users.id', authorRow: 'users', place: 'across' }));
  return newestFirst(query, 'post_reactions.user_id', cursor, limit).execute();
}

/**
 * The web's likers list (issue 68, item 29): the people who like a post as `viewerId` may come
 * across them, newest like first, each with whether the viewer follows them. The cursor is the last
 * liker's user id (the reactions' key is the post and the user); the page goes on below that like's
 * time, ties broken by user id. A cursor whose like was taken back since ends the list.
 */
function likersByNewest(db: Queryable, viewerId: string, postId: string, cursor: string | null, limit: number) {
  const query = db
    .selectFrom('post_reactions')
    .innerJoin('users', 'users.id', 'post_reactions.user_id')
    .select(personColumns(db, viewerId))
    .where('post_reactions.post_id', '=', unplanned(db, postId))
    .where('post_reactions.kind', '=', 'like')
    .where(visibleAuthor(db, viewerId, { author: 'users.id', authorRow: 'users', place: 'across' }));
  // The cursor's like, read as before: its post id is a plain parameter there.
  const likedAt = (userId: string) =>
    db
      .selectFrom('post_reactions as at')
      .select('at.created_at')
      .where('at.post_id', '=', postId)
      .where('at.user_id', '=', userId);
  return newestFirstByTime(
    query,
    { time: 'post_reactions.created_at', id: 'post_reactions.user_id' },
    cursor === null ? null : { id: cursor, time: likedAt(cursor) },
    limit,
  ).execute();
}

const audienceAmongOf = (db: Queryable, postId: string, userIds: string[]) =>
  stepsOn(db, audienceAmongSteps(postId, userIds));

export const postsRepository = bindQueries({
  postsByIds,
  audienceAmong: audienceAmongOf,
  likersOf,
  likersByNewest,
  blockedCommentCounts,
  commentCountsOf,
  everyoneIds: postIds.everyone,
  idsWithTag: postIds.withTag,
  idsByCreator: postIds.byCreator,
  findPost,
  findPostOwner,
  findVisiblePostOwner,
  allPosts,
  postsByCreator,
  taggedPosts,
  replaceTags,
  replacePhotos,
  photosOf,
  updatePost,
  deletePost,
  postIdWithUri,
  addToCommentsCount,
});

export type PostsRepository = ReturnType<typeof postsRepository>;
/** For the home feed's queries, which call it on their own handle without a bound wrapper in between. */
export { postsByIds };
