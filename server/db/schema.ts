/** Table types for Kysely. Columns are snake_case; timestamps are ISO-8601 UTC strings on both databases. */
import type { Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';

export interface UsersTable {
  id: string;
  username: string;
  /** Lower-cased username: uniqueness and lookups ignore case. */
  username_lower: string;
  email: string;
  password_hash: string;
  role: 'member' | 'admin';
  avatar: string | null;
  banner: string | null;
  description: string;
  followers_count: Generated<number>;
  following_count: Generated<number>;
  posts_count: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** One row per sign-in: the refresh-token family. */
export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
}

/** Every refresh token ever issued, by hash; a used one is kept to detect reuse. */
export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: string;
  used_at: string | null;
}

export interface PostsTable {
  id: string;
  creator_id: string;
  message: string;
  image: string;
  /** The media row behind `image` when it is one of this server's uploads. */
  media_id: string | null;
  /** Tags as the author spelled them, JSON array; post_tags holds the lower-cased search keys. */
  tags: string;
  likes_count: Generated<number>;
  dislikes_count: Generated<number>;
  comments_count: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface PostTagsTable {
  post_id: string;
  tag: string;
}

export interface PostReactionsTable {
  post_id: string;
  user_id: string;
  kind: 'like' | 'dislike';
  created_at: string;
}

export interface CommentsTable {
  id: string;
  post_id: string;
  user_id: string;
  message: string;
  likes_count: Generated<number>;
  dislikes_count: Generated<number>;
  created_at: string;
}

export interface CommentReactionsTable {
  comment_id: string;
  user_id: string;
  kind: 'like' | 'dislike';
  created_at: string;
}

export interface FollowsTable {
  /** UUIDv7: the keyset cursor of follower/following lists (newest first). */
  id: string;
  follower_id: string;
  followee_id: string;
  created_at: string;
}

export interface MediaTable {
  id: string;
  owner_id: string;
  preset: 'avatar' | 'post' | 'banner';
  /** Storage key of the main (fallback-format) variant. */
  storage_key: string;
  /** JSON: [{ key, width, height, format, bytes }] of every stored variant. */
  variants: string;
  width: number;
  height: number;
  format: string;
  bytes: number;
  thumbhash: string | null;
  created_at: string;
}

export type NotificationType = 'follow' | 'like' | 'comment' | 'mention' | 'commentLike';

export interface NotificationsTable {
  /** UUIDv7: the keyset cursor and the stream's event id. */
  id: string;
  /** Who is notified. */
  user_id: string;
  /** Who acted. */
  actor_id: string;
  type: NotificationType;
  post_id: string | null;
  comment_id: string | null;
  /** The comment, else the post, else '': one action per (user_id, type, actor_id, subject_id). */
  subject_id: string;
  read_at: string | null;
  created_at: string;
}

export interface PostMentionsTable {
  post_id: string;
  user_id: string;
}

export interface CommentMentionsTable {
  comment_id: string;
  user_id: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  posts: PostsTable;
  post_tags: PostTagsTable;
  post_reactions: PostReactionsTable;
  comments: CommentsTable;
  comment_reactions: CommentReactionsTable;
  follows: FollowsTable;
  media: MediaTable;
  notifications: NotificationsTable;
  post_mentions: PostMentionsTable;
  comment_mentions: CommentMentionsTable;
}

/** The database or a transaction on it: what repository functions run their queries on. */
export type Queryable = Kysely<Database> | Transaction<Database>;

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type PostRow = Selectable<PostsTable>;
export type MediaRow = Selectable<MediaTable>;
