/**
 * Queries on people, posts and comments from elsewhere (issue 32): the `users` rows with a
 * `domain`, and the posts and comments kept with their object's `uri`. No rules.
 */
import type { DomainSeverity } from '../../lib/types';
import { usernameKey } from '../../lib/validation';
import { bindQueries } from '../db/repository';
import type { Queryable } from '../db/schema';

export interface RemotePersonFields {
  username: string;
  domain: string;
  actor_uri: string;
  inbox_uri: string;
  shared_inbox_uri: string | null;
  url: string | null;
  description: string;
  /** Their actor's `name`, cleaned (`remoteDisplayNameOf`); null: their username shows. */
  display_name: string | null;
  /** Their `PropertyValue`s as profile fields (`remoteProfileFields.ts`); null: none. */
  profile_fields?: string | null;
  /** 1: their actor says `manuallyApprovesFollowers` (a follow of them waits for their `Accept`). */
  approve_followers?: number;
  /** 1: their actor says `discoverable` (issue 73): their public posts may trend, they may be suggested. */
  discoverable?: number;
}

const remoteColumns = [
  'id',
  'username',
  'domain',
  'actor_uri',
  'inbox_uri',
  'shared_inbox_uri',
  'url',
  'description',
  'display_name',
  'profile_fields',
  'approve_followers',
  'discoverable',
  'avatar',
  'banner',
  'avatar_source',
  'banner_source',
  'fetched_at',
  'suspended_at',
] as const;

function personWithActorUri(db: Queryable, actorUri: string) {
  return db.selectFrom('users').select(remoteColumns).where('actor_uri', '=', actorUri).executeTakeFirst();
}

export type RemotePersonRow = NonNullable<Awaited<ReturnType<typeof personWithActorUri>>>;

function remotePersonById(db: Queryable, id: string) {
  return db
    .selectFrom('users')
    .select(remoteColumns)
    .where('id', '=', id)
    .where('domain', 'is not', null)
    .executeTakeFirst();
}

/** A new person from elsewhere; false when their actor (or their name) is kept already. */
async function insertRemotePerson(
  db: Queryable,
  row: RemotePersonFields & { id: string; now: string; severity?: DomainSeverity | null },
): Promise<boolean> {
  const { id, now, severity = null, ...fields } = row;
  const result = await db
    .insertInto('users')
    .values({
      id,
      ...fields,
      username_lower: usernameKey(fields.username),
      // No address and no password: nobody signs in as a person from elsewhere.
      email: `remote:${id}`,
      password_hash: '',
      role: 'member',
      created_at: now,
      updated_at: now,
      fetched_at: now,
      // Under a domain block already: as the block would have made them (domainBlocks.ts).
      domain_silenced: severity === 'silence' ? 1 : 0,
      ...(severity === 'suspend' && { suspended_at: now, domain_suspended: 1 }),
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

async function updateRemotePerson(db: Queryable, id: string, fields: Partial<RemotePersonFields>, now: string) {
  await db
    .updateTable('users')
    .set({
      ...fields,
      ...(fields.username && { username_lower: usernameKey(fields.username) }),
      fetched_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/** Their avatar or banner as fetched into this instance's media from `source` (null: none). */
async function setPicture(
  db: Queryable,
  id: string,
  field: 'avatar' | 'banner',
  picture: { url: string; source: string } | null,
): Promise<void> {
  await db
    .updateTable('users')
    .set(
      field === 'avatar'
        ? { avatar: picture?.url ?? null, avatar_source: picture?.source ?? null }
        : { banner: picture?.url ?? null, banner_source: picture?.source ?? null },
    )
    .where('id', '=', id)
    .execute();
}

/** A kept post from elsewhere by its Note's id, with its author. */
function postWithUri(db: Queryable, uri: string) {
  return db.selectFrom('posts').select(['id', 'creator_id']).where('uri', '=', uri).executeTakeFirst();
}

function commentWithUri(db: Queryable, uri: string) {
  return db.selectFrom('comments').select(['id', 'post_id', 'user_id']).where('uri', '=', uri).executeTakeFirst();
}

/** A post with what deliveries need: its author, and the Note's id when it came from elsewhere. */
function postOrigin(db: Queryable, id: string) {
  return db
    .selectFrom('posts')
    .innerJoin('users', 'users.id', 'posts.creator_id')
    .select([
      'posts.id',
      'posts.uri',
      'posts.creator_id',
      'posts.audience',
      'users.domain',
      'users.actor_uri',
      'users.inbox_uri',
    ])
    .where('posts.id', '=', id)
    .executeTakeFirst();
}

/** Whether any local person follows this one (their posts are kept only then). */
async function hasLocalFollower(db: Queryable, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('follows')
    .innerJoin('users', 'users.id', 'follows.follower_id')
    .select('follows.id')
    .where('follows.followee_id', '=', userId)
    .where('users.domain', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the person likes the post now (a `Like` or its `Undo` only changes what needs it). */
async function likes(db: Queryable, postId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('post_reactions')
    .select('kind')
    .where('post_id', '=', postId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.kind === 'like';
}

/** A local person's name and state (whom an activity is for). */
function localPerson(db: Queryable, id: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'role', 'suspended_at'])
    .where('id', '=', id)
    .where('domain', 'is', null)
    .executeTakeFirst();
}

async function postCountOf(db: Queryable, userId: string): Promise<number> {
  const row = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('creator_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export const remoteRepository = bindQueries({
  postCountOf,
  likes,
  localPerson,
  personWithActorUri,
  remotePersonById,
  insertRemotePerson,
  updateRemotePerson,
  setPicture,
  postWithUri,
  commentWithUri,
  postOrigin,
  hasLocalFollower,
});

export type RemoteRepository = ReturnType<typeof remoteRepository>;
