import type { Profile, User } from '../../lib/types';
import type { UserRow } from '../db/schema';

export const toUser = (row: UserRow): User => ({
  _id: row.id,
  username: row.username,
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
});

export const toProfile = (row: UserRow, followedByMe: boolean): Profile => ({
  _id: row.id,
  username: row.username,
  avatar: row.avatar,
  banner: row.banner,
  description: row.description,
  followersCount: Number(row.followers_count),
  followingCount: Number(row.following_count),
  postsCount: Number(row.posts_count),
  followedByMe,
  createdAt: row.created_at,
});
