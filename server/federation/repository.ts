/**
 * What federation reads of local people, posts and comments (issue 32): the rows behind actors,
 * Notes and collections. Queries only; nothing suspended is returned (a suspended user's actor
 * and content are not served).
 */
import { cropOfColumn } from '../../lib/photoCrop';
import { usernameKey } from '../../lib/validation';
import type { NoteImageFacts } from './noteImageExtras';
import { newestFirst } from '../db/keyset';
import { bindQueries } from '../db/repository';
import { isUuid } from '../domain/ids';
import type { FederationFollowersTable, FederationKeysTable, Queryable } from '../db/schema';
import { selectPosts } from '../posts/repository';
import { selectComments } from '../comments/repository';

/** No viewer: what anyone may see. */
const ANYONE = '';

const actorRow = (db: Queryable) =>
  db.selectFrom('users').select([
    'id',
    'username',
    'display_name',
    'profile_fields',
    'description',
    'avatar',
    'banner',
    'created_at',
    'suspended_at',
    'followers_count',
    'following_count',
    'posts_count',
    'approve_followers',
    'discoverable',
    'also_known_as',
    'moved_to_id',
    // The account moved to, when it is someone elsewhere: their actor (one of ours: null).
    (eb) =>
      eb
        .selectFrom('users as moved_to')
        .select('moved_to.actor_uri')
        .whereRef('moved_to.id', '=', 'users.moved_to_id')
        .as('moved_to_actor_uri'),
  ]);

export type ActorRow = NonNullable<Awaited<ReturnType<typeof findActor>>>;

/** Local people only: someone from elsewhere is never served as this instance's actor. */
function findActor(db: Queryable, id: string) {
  return actorRow(db).where('id', '=', id).where('domain', 'is', null).executeTakeFirst();
}

async function actorIdNamed(db: Queryable, username: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username_lower', '=', usernameKey(username))
    .where('domain', 'is', null)
    .executeTakeFirst();
  return row?.id;
}

function findKeys(db: Queryable, userId: string) {
  return db.selectFrom('federation_keys').selectAll().where('user_id', '=', userId).execute();
}

/** Two instances making a user's first keys at once: the first insert stays, the other's is dropped. */
async function insertKeysOnce(db: Queryable, rows: FederationKeysTable[]): Promise<void> {
  await db
    .insertInto('federation_keys')
    .values(rows)
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doNothing())
    .execute();
}

const visiblePosts = (db: Queryable) => selectPosts(db, ANYONE, 'content');
export type NotePostRow = Awaited<ReturnType<ReturnType<typeof visiblePosts>['execute']>>[number];

/** A local post: one from elsewhere is served by its own server. */
function findPost(db: Queryable, id: string) {
  return visiblePosts(db).where('posts.id', '=', id).where('posts.uri', 'is', null).executeTakeFirst();
}

/** A creator's posts anyone may read (public and unlisted, as Mastodon's outbox), newest first, below the cursor. */
function postsOf(db: Queryable, creatorId: string, cursor: string | null, limit: number) {
  const readable = visiblePosts(db)
    .where('posts.creator_id', '=', creatorId)
    .where('posts.audience', 'in', ['public', 'unlisted']);
  return newestFirst(readable, 'posts.id', cursor, limit).execute();
}

export type NoteCommentRow = NonNullable<Awaited<ReturnType<typeof findComment>>>;

/** A comment whose author and post's author may be seen. */
function findComment(db: Queryable, id: string) {
  return selectComments(db, ANYONE)
    .innerJoin('posts', 'posts.id', 'comments.post_id')
    .innerJoin('users as post_creator', 'post_creator.id', 'posts.creator_id')
    .select([
      'posts.creator_id as post_creator_id',
      // A reply to a post from elsewhere names the Note and its author by their own addresses.
      'posts.uri as post_uri',
      'post_creator.actor_uri as post_creator_actor_uri',
      // Who may see the post says who may see its comments (issue 70).
      'posts.audience as post_audience',
    ])
    .where('post_creator.suspended_at', 'is', null)
    .where('comments.uri', 'is', null)
    .where('comments.id', '=', id)
    .executeTakeFirst();
}

/** The people a post or comment links (`post_mentions`, `comment_mentions`), by id and current name. */
function mentionedUsers(db: Queryable, kind: 'post' | 'comment', id: string) {
  const query =
    kind === 'post'
      ? db.selectFrom('post_mentions as m').innerJoin('users', 'users.id', 'm.user_id').where('m.post_id', '=', id)
      : db
          .selectFrom('comment_mentions as m')
          .innerJoin('users', 'users.id', 'm.user_id')
          .where('m.comment_id', '=', id);
  return query.select(['users.id', 'users.username', 'users.actor_uri', 'users.url']).execute();
}

/**
 * The image facts of these local posts' Notes (blurhash, focal point), by post id: one per photo,
 * in order (issue 71). A post without album rows (written straight into the database): its image.
 */
async function noteImagesOf(db: Queryable, postIds: string[]): Promise<Map<string, NoteImageFacts[]>> {
  const ids = postIds.filter(isUuid);
  const found = new Map<string, NoteImageFacts[]>();
  if (ids.length === 0) return found;
  const photos = await db
    .selectFrom('post_images')
    .innerJoin('posts', 'posts.id', 'post_images.post_id')
    .leftJoin('media', 'media.id', 'post_images.media_id')
    .select(['post_images.post_id as id', 'post_images.crop', 'media.thumbhash'])
    .where('post_images.post_id', 'in', ids)
    .where('posts.uri', 'is', null)
    .orderBy('post_images.post_id')
    .orderBy('post_images.position')
    .execute();
  for (const row of photos) {
    const fact = { thumbhash: row.thumbhash ?? null, crop: cropOfColumn(row.crop) };
    found.set(row.id, [...(found.get(row.id) ?? []), fact]);
  }
  const rest = ids.filter((id) => !found.has(id));
  if (rest.length === 0) return found;
  const rows = await db
    .selectFrom('posts')
    .innerJoin('media', 'media.id', 'posts.media_id')
    .select(['posts.id', 'posts.crop', 'media.thumbhash'])
    .where('posts.id', 'in', rest)
    .where('posts.uri', 'is', null)
    .execute();
  for (const row of rows) found.set(row.id, [{ thumbhash: row.thumbhash, crop: cropOfColumn(row.crop) }]);
  return found;
}

/** Largest first: a Note's attachment names the largest variant. */
function mediaOf(db: Queryable, id: string) {
  return db.selectFrom('media').select(['width', 'height', 'variants']).where('id', '=', id).executeTakeFirst();
}

/** Who follows `userId` (`side` 'followers') or whom they follow ('following'), newest first. */
function followsOf(
  db: Queryable,
  side: 'followers' | 'following',
  userId: string,
  cursor: string | null,
  limit: number,
  localOnly = false,
) {
  const [own, other] =
    side === 'followers' ? (['followee_id', 'follower_id'] as const) : (['follower_id', 'followee_id'] as const);
  const query = db
    .selectFrom('follows')
    .innerJoin('users', 'users.id', `follows.${other}`)
    .select(['follows.id as follow_id', 'users.id as user_id', 'users.actor_uri'])
    .where(`follows.${own}`, '=', userId)
    .where('users.suspended_at', 'is', null)
    .$if(localOnly, (q) => q.where('users.domain', 'is', null));
  return newestFirst(query, 'follows.id', cursor, limit).execute();
}

/** NodeInfo's usage figures: people, and those who posted or commented within each window. */
async function usage(db: Queryable, since: { month: string; halfYear: string }) {
  const count = (rows: { n: number | string | bigint } | undefined) => Number(rows?.n ?? 0);
  const active = async (after: string) => {
    // This instance's own people and writing: what is kept from elsewhere is not its usage.
    const posters = db
      .selectFrom('posts')
      .select('creator_id as id')
      .where('created_at', '>', after)
      .where('uri', 'is', null);
    const commenters = db
      .selectFrom('comments')
      .select('user_id as id')
      .where('created_at', '>', after)
      .where('uri', 'is', null);
    return count(
      await db
        .selectFrom(posters.union(commenters).as('active'))
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst(),
    );
  };
  const users = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('suspended_at', 'is', null)
    .where('domain', 'is', null)
    .executeTakeFirst();
  const posts = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('uri', 'is', null)
    .executeTakeFirst();
  const comments = await db
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('uri', 'is', null)
    .executeTakeFirst();
  return {
    users: count(users),
    activeMonth: await active(since.month),
    activeHalfYear: await active(since.halfYear),
    posts: count(posts),
    comments: count(comments),
  };
}

/** A follow from elsewhere, kept once per person followed (a repeated Follow updates it). */
async function addRemoteFollower(db: Queryable, row: FederationFollowersTable): Promise<void> {
  await db
    .insertInto('federation_followers')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['user_id', 'actor_uri']).doUpdateSet({
        inbox_uri: row.inbox_uri,
        shared_inbox_uri: row.shared_inbox_uri,
        follow_id: row.follow_id,
      }),
    )
    .execute();
}

async function removeRemoteFollower(db: Queryable, userId: string, actorUri: string): Promise<boolean> {
  const result = await db
    .deleteFrom('federation_followers')
    .where('user_id', '=', userId)
    .where('actor_uri', '=', actorUri)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Ends the follow of a local user by someone elsewhere; the id of their `Follow`, or undefined when none was kept. */
async function takeRemoteFollower(db: Queryable, userId: string, actorUri: string) {
  const row = await db
    .deleteFrom('federation_followers')
    .where('user_id', '=', userId)
    .where('actor_uri', '=', actorUri)
    .returning('follow_id')
    .executeTakeFirst();
  return row?.follow_id;
}

/** Whom `actorUri` follows here through the Follow `followId` (an Undo may name it by its id alone). */
async function followedThrough(db: Queryable, followId: string, actorUri: string): Promise<string | null> {
  const row = await db
    .selectFrom('federation_followers')
    .select('user_id')
    .where('follow_id', '=', followId)
    .where('actor_uri', '=', actorUri)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** A person elsewhere whose account is gone: they follow nobody here any more. */
async function forgetFollowerElsewhere(db: Queryable, actorUri: string): Promise<void> {
  await db.deleteFrom('federation_followers').where('actor_uri', '=', actorUri).execute();
}

function remoteFollowersOf(db: Queryable, userId: string) {
  return db
    .selectFrom('federation_followers')
    .select(['actor_uri', 'inbox_uri', 'shared_inbox_uri'])
    .where('user_id', '=', userId)
    .execute();
}

/** A local user's followers elsewhere, newest first, below the cursor (a row id). */
function remoteFollowersPage(db: Queryable, userId: string, cursor: string | null, limit: number) {
  const query = db
    .selectFrom('federation_followers')
    .select(['id', 'actor_uri', 'inbox_uri', 'shared_inbox_uri'])
    .where('user_id', '=', userId);
  return newestFirst(query, 'id', cursor, limit).execute();
}

async function remoteFollowerCount(db: Queryable, userId: string): Promise<number> {
  const row = await db
    .selectFrom('federation_followers')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Deliveries waiting or running, on every instance (`/metrics`). */
async function queuedTasks(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('federation_queue')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export const federationRepository = bindQueries({
  findActor,
  actorIdNamed,
  findKeys,
  insertKeysOnce,
  findPost,
  postsOf,
  findComment,
  mentionedUsers,
  mediaOf,
  noteImagesOf,
  followsOf,
  usage,
  addRemoteFollower,
  removeRemoteFollower,
  takeRemoteFollower,
  followedThrough,
  forgetFollowerElsewhere,
  remoteFollowersOf,
  remoteFollowersPage,
  remoteFollowerCount,
  queuedTasks,
});

export type FederationRepository = ReturnType<typeof federationRepository>;
