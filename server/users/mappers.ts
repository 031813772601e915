import { isLanguage, type Language } from '../../lib/i18n/languages';
import type { Profile, User } from '../../lib/types';
import type { UserRow } from '../db/schema';
import { fieldsOf } from './profileFields';

export const toUser = (row: UserRow): User => ({
  _id: row.id,
  username: row.username,
  displayName: row.display_name,
  fields: fieldsOf(row.profile_fields),
  email: row.email,
  avatar: row.avatar,
  banner: row.banner,
  description: row.description,
  role: row.role,
  followersCount: Number(row.followers_count),
  followingCount: Number(row.following_count),
  postsCount: Number(row.posts_count),
  createdAt: row.created_at,
  emailVerified: row.email_verified_at !== null,
  pendingEmail: row.pending_email,
  approveFollowers: Number(row.approve_followers) === 1,
  defaultAudience: row.default_audience,
  discoverable: Number(row.discoverable) === 1,
  language: isLanguage(row.language) ? row.language : null,
});

/** How the viewer relates to the profile's user. */
export interface ProfileRelations {
  followedByMe: boolean;
  blockedByMe: boolean;
  mutedByMe: boolean;
  /** The viewer's follow request waits for their answer (issue 70). */
  followRequestedByMe?: boolean;
}

/**
 * What anyone may read of a person, without the viewer's relations to them. `language`: the one they
 * chose for the app, which the client API gives as their statuses' (issue 75); not part of a Profile.
 */
export type AuthorFacts = Omit<Profile, 'followedByMe' | 'blockedByMe' | 'mutedByMe' | 'followRequestedByMe'> & {
  language: Language | null;
};

export const toAuthorFacts = (row: UserRow): AuthorFacts => ({
  _id: row.id,
  username: row.username,
  displayName: row.display_name,
  fields: fieldsOf(row.profile_fields),
  avatar: row.avatar,
  banner: row.banner,
  description: row.description,
  followersCount: Number(row.followers_count),
  followingCount: Number(row.following_count),
  postsCount: Number(row.posts_count),
  approveFollowers: Number(row.approve_followers) === 1,
  discoverable: Number(row.discoverable) === 1,
  createdAt: row.created_at,
  language: isLanguage(row.language) ? row.language : null,
  ...remoteOf(row),
});

/** Someone elsewhere: their page and their actor's address there, and whether their server is silenced. */
const remoteOf = (row: UserRow) =>
  row.domain !== null
    ? {
        remoteUrl: row.url ?? row.actor_uri ?? '',
        remoteUri: row.actor_uri ?? '',
        ...(Number(row.domain_silenced) === 1 && { silenced: true as const }),
      }
    : {};

export const toProfile = (
  row: UserRow,
  { followedByMe, blockedByMe, mutedByMe, followRequestedByMe = false }: ProfileRelations,
): Profile => ({
  _id: row.id,
  username: row.username,
  displayName: row.display_name,
  fields: fieldsOf(row.profile_fields),
  avatar: row.avatar,
  banner: row.banner,
  description: row.description,
  followersCount: Number(row.followers_count),
  followingCount: Number(row.following_count),
  postsCount: Number(row.posts_count),
  followedByMe,
  approveFollowers: Number(row.approve_followers) === 1,
  followRequestedByMe,
  discoverable: Number(row.discoverable) === 1,
  blockedByMe,
  mutedByMe,
  createdAt: row.created_at,
  ...remoteOf(row),
});
