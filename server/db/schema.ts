/** Table types for Kysely. Columns are snake_case; timestamps are ISO-8601 UTC strings on both databases. */
import type { Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { Audience } from '../../lib/audience';

export interface UsersTable {
  id: string;
  /** The audience a new post starts with (lib/audience.ts, migration 031). */
  default_audience: Generated<Audience>;
  /** The language chosen for the app (lib/i18n/languages.ts, migration 038); null: not chosen. */
  language: Generated<string | null>;
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
  /** When the user opened a verification link for `email`; null: not verified. */
  email_verified_at: Generated<string | null>;
  /** A new address waiting for its link to be opened; `email` changes only then. */
  pending_email: Generated<string | null>;
  /** Set while an admin has the user suspended: their posts, comments and profile are hidden from others. */
  suspended_at: Generated<string | null>;
  /** Set for a person on another server (host[:port], migration 012); null: a local account. */
  domain: Generated<string | null>;
  /** Their ActivityPub actor's id, inbox, shared inbox and profile page (people elsewhere only). */
  actor_uri: Generated<string | null>;
  inbox_uri: Generated<string | null>;
  shared_inbox_uri: Generated<string | null>;
  url: Generated<string | null>;
  /** When their actor was last fetched. */
  fetched_at: Generated<string | null>;
  /** Where their kept avatar and banner were fetched from (migration 018): a new address is fetched again. */
  avatar_source: Generated<string | null>;
  banner_source: Generated<string | null>;
  /** 1 while a suspended domain block holds them suspended (migration 013): lifting it gives them back. */
  domain_suspended: Generated<number>;
  /** 1 while the strictest domain block of their host is a `silence` (migration 015). */
  domain_silenced: Generated<number>;
  /** The newest notification id they have read (migration 020): those up to it are read; null: none. */
  notifications_read_to: Generated<string | null>;
  /** The name shown above `@username` (migration 023); null: the username shows. */
  display_name: Generated<string | null>;
  /** Their profile links, JSON `[{ name, value, verified_at }]` (migration 023, `lib/profileFields.ts`); null: none. */
  profile_fields: Generated<string | null>;
  /** Their other accounts' actor addresses, JSON `["https://…"]` (migration 029, local people); null: none. */
  also_known_as: Generated<string | null>;
  /** The account (a `users` id, here or kept from elsewhere) this one moved to (migration 029); null: not moved. */
  moved_to_id: Generated<string | null>;
  moved_at: Generated<string | null>;
  /** 1: a follow of them is a request until they approve it (migration 028, issue 70). */
  approve_followers: Generated<number>;
  /** 1: suggested to others, and their public posts in Explore (migration 035, Mastodon's `discoverable`). */
  discoverable: Generated<number>;
}

/** One row per sign-in: the refresh-token family. */
export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
  /** Set at sign-in and on every refresh (every 15 minutes of use), not on every request. */
  last_used_at: string | null;
}

/** Every refresh token ever issued, by hash; a used one is kept to detect reuse. */
export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: string;
  used_at: string | null;
}

export type EmailTokenPurpose = 'password_reset' | 'verify_email' | 'change_email';

/** Links mailed to a user, by the SHA-256 hash of their token; single use. */
export interface EmailTokensTable {
  token_hash: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  /** The address the link was sent to (for `change_email`, the new address). */
  email: string;
  created_at: string;
  expires_at: string;
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
  /** The image's description as the author wrote it; '' lets the generated text stand in. */
  alt: Generated<string>;
  /** 1: the image is blurred behind `spoiler` until the viewer asks for it. */
  sensitive: Generated<number>;
  spoiler: Generated<string>;
  /** Where feeds crop the photo: '', 'fit' or 'x,y' (lib/photoCrop.ts, migration 024). */
  crop: Generated<string>;
  /** A post from elsewhere: its `Note`'s id, and the original's page (migration 012). */
  uri: Generated<string | null>;
  url: Generated<string | null>;
  /** Who may see it (lib/audience.ts, migration 031). */
  audience: Generated<Audience>;
  /** How many photos the post has (issue 71, migration 033): more than one, `post_images` lists them. */
  image_count: Generated<number>;
  /** An imported post's origin, 'instagram' or 'posts' (issue 76, migration 036); null for a post made here. */
  imported_from: Generated<string | null>;
}

/**
 * A post's photos in order (issue 71, migration 033): position 0 is the posts row's own image, alt
 * and crop, repeated here so that the table holds the whole list.
 */
export interface PostImagesTable {
  post_id: string;
  position: number;
  image: string;
  /** The media row behind `image` when it is one of this server's uploads. */
  media_id: string | null;
  alt: Generated<string>;
  /** Where feeds crop the photo: '', 'fit' or 'x,y' (lib/photoCrop.ts). */
  crop: Generated<string>;
  /** A post from elsewhere: the image's address in its Note (an `Update` names it so). */
  source: string | null;
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

/** A post someone saved (issue 73): theirs alone to know. */
export interface SavedPostsTable {
  user_id: string;
  post_id: string;
  created_at: string;
}

/** A tag someone follows (issue 73): `tag` its key (`tagKey`), `name` as they wrote it. */
export interface FollowedTagsTable {
  /** A UUIDv7 minted at the follow: newest first is by it. */
  id: string;
  user_id: string;
  tag: string;
  name: string;
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
  /** A comment from elsewhere: its `Note`'s id (migration 012). */
  uri: Generated<string | null>;
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

/** A follow waiting for the followee's approval (migration 028); `follows` holds approved ones only. */
export interface FollowRequestsTable {
  /** UUIDv7: the keyset cursor of the requests list (newest first). */
  id: string;
  follower_id: string;
  followee_id: string;
  /** The `Follow` activity elsewhere this request stands for: theirs to us, or ours to them. */
  activity_uri: string | null;
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
  /** Alt text sent with a Mastodon API upload, until a post takes it (migration 011). */
  description: Generated<string | null>;
  /** The focal point sent with a Mastodon API upload, in posts' crop form (migration 025). */
  crop: Generated<string>;
}

export type NotificationType = 'follow' | 'followRequest' | 'like' | 'comment' | 'mention' | 'commentLike';

export interface NotificationsTable {
  /** UUIDv7: the keyset cursor and the stream's event id. */
  id: string;
  /** Who is notified. */
  user_id: string;
  /** Who acted. */
  actor_id: string;
  type: NotificationType;
  /** Null for one about a comment (migration 021): its post is the comment's. */
  post_id: string | null;
  comment_id: string | null;
  /** The comment, else the post, else '': one action per (user_id, type, actor_id, subject_id). */
  subject_id: string;
  /** When it was marked read, for the export; whether it is read is `users.notifications_read_to`'s. */
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

/** One user's TOTP secret, sealed with a key derived from JWT_SECRET (server/auth/twoFactor.ts). */
export interface TwoFactorTable {
  user_id: string;
  secret: string;
  /** Null while set up but not confirmed. */
  enabled_at: string | null;
  /** The newest 30-second step a code was accepted for (replays of it or older steps are refused). */
  last_step: number | null;
  created_at: string;
}

/** Single-use recovery codes, stored as keyed hashes. */
export interface RecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: string | null;
}

/** Usernames of deleted accounts: nobody registers them until `retired_until`. */
export interface RetiredUsernamesTable {
  username_lower: string;
  retired_until: string;
}

/** `user_id` blocks (or mutes) `target_id`; one row per pair. */
export interface UserRelationTable {
  /** UUIDv7: the keyset cursor of the blocks/mutes lists (newest first). */
  id: string;
  user_id: string;
  target_id: string;
  created_at: string;
}

export type ReportTargetType = 'post' | 'comment' | 'user';
export type ReportReason = 'spam' | 'abuse' | 'illegal' | 'other';
export type ReportResolution = 'dismiss' | 'removeContent' | 'suspendUser';

/** A user's report of a post, comment or user; at most one open per reporter and target. */
export interface ReportsTable {
  /** UUIDv7: the queue's keyset cursor. */
  id: string;
  reporter_id: string;
  target_type: ReportTargetType;
  target_id: string;
  /** The author of the reported content, or the reported user. */
  target_user_id: string;
  reason: ReportReason;
  /** Seen by admins only. */
  note: string;
  status: 'open' | 'resolved';
  created_at: string;
  resolved_at: string | null;
  /** The admin's username. */
  resolved_by: string | null;
  resolution: ReportResolution | null;
}

export type AdminAction = ReportResolution | 'unsuspendUser' | DomainAction | TrendsAction;
/** A post or tag hidden from Explore's trends, or shown in them again (issue 73). */
export type TrendsAction = 'hideFromTrends' | 'showInTrends';
/** A domain blocked with that severity (or its severity changed to it), or unblocked (issue 32). */
export type DomainAction = 'silenceDomain' | 'suspendDomain' | 'unblockDomain';

/** Every admin action: who, what, on what, when. */
export interface AdminLogTable {
  id: string;
  admin_username: string;
  action: AdminAction;
  target_type: ReportTargetType | 'domain' | 'tag';
  target_id: string;
  /** What an admin reads: the username, or the start of the post or comment. */
  target_label: string;
  note: string;
  created_at: string;
}

/** A post or a tag an admin hid from the trends (issue 73, migration 035). */
export interface ExploreHiddenTable {
  id: string;
  kind: 'post' | 'tag';
  /** The post's id, or the tag's key (`tagKey`). */
  subject: string;
  created_at: string;
}

/** Fedify's key–value store (issue 32); `expires_at`: epoch ms, null for ever. */
export interface FederationKvTable {
  key: string;
  value: string;
  expires_at: number | string | null;
}

/** Fedify's message queue (issue 32): deliveries and their fan-outs; times in epoch ms. */
/** Issue 76: an import of a Mastodon CSV list (migration 025). */
export interface AccountListImportsTable {
  id: string;
  user_id: string;
  kind: 'follows' | 'blocks' | 'mutes';
  mode: 'merge' | 'overwrite';
  state: 'running' | 'finished';
  pruned: Generated<number>;
  total: number;
  claimed_until: number | string | null;
  created_at: string;
  finished_at: string | null;
}

/** One line of an imported list: the address and what became of it. */
export interface AccountListImportRowsTable {
  import_id: string;
  line: number;
  address: string;
  status: 'pending' | 'done' | 'failed';
  error: string | null;
}

/** An Instagram archive being imported (issue 76, item 1). */
export interface InstagramImportsTable {
  id: string;
  user_id: string;
  state: 'ready' | 'running' | 'finished' | 'cancelled';
  archive: string | null;
  total: Generated<number>;
  claimed_until: number | string | null;
  created_at: string;
  finished_at: string | null;
  /** Which archive (migration 037): an Instagram one, or a Posts export. */
  kind: Generated<'instagram' | 'posts'>;
  /** JSON: a Posts export's profile settings (`ImportSettings`); null for Instagram's. */
  settings: string | null;
}

/** A post found in an Instagram archive, and what became of it. */
export interface InstagramImportPostsTable {
  import_id: string;
  position: number;
  taken_at: string;
  caption: string;
  photos: string;
  left_out: Generated<number>;
  status: 'found' | 'pending' | 'done' | 'failed' | 'skipped';
  error: string | null;
  post_id: string;
  /** JSON: what a Posts export says of the post beyond its message (`PostDetails`); null for Instagram's. */
  details: string | null;
}

export interface FederationQueueTable {
  id: string;
  message: string;
  ordering_key: string | null;
  run_at: number | string;
  claimed_until: number | string | null;
  attempts: Generated<number>;
}

/** Each local user's key pairs as JWK, made once (issue 32). */
export interface FederationKeysTable {
  user_id: string;
  kind: 'rsa' | 'ed25519';
  public_jwk: string;
  private_jwk: string;
  created_at: string;
}

/** Someone on another server following a local user (issue 32). */
export interface FederationFollowersTable {
  id: string;
  user_id: string;
  actor_uri: string;
  inbox_uri: string;
  shared_inbox_uri: string | null;
  follow_id: string;
  created_at: string;
}

export type DomainSeverity = 'silence' | 'suspend';

/** A domain an admin blocked (issue 32): silenced (hidden from non-followers) or suspended (refused). */
export interface FederationDomainBlocksTable {
  id: string;
  domain: string;
  severity: DomainSeverity;
  created_at: string;
  updated_at: string;
}

/** A deleted local account: its actor answers 410 with a `Tombstone`. */
export interface FederationTombstonesTable {
  user_id: string;
  username_lower: string;
  deleted_at: string;
}

/** A client app registered through `POST /api/v1/apps` (issue 33). */
export interface OAuthAppsTable {
  id: string;
  client_id: string;
  client_secret_hash: string;
  name: string;
  website: string | null;
  /** Newline-separated. */
  redirect_uris: string;
  /** Space-separated. */
  scopes: string;
  created_at: string;
}

/** A single-use authorization code, by hash; PKCE's S256 challenge when the app sent one. */
export interface OAuthCodesTable {
  code_hash: string;
  app_id: string;
  user_id: string;
  redirect_uri: string;
  scopes: string;
  code_challenge: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** An access token, by hash; a person's token owns a session row (null for client_credentials). */
export interface OAuthTokensTable {
  id: string;
  token_hash: string;
  app_id: string;
  user_id: string | null;
  session_id: string | null;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
}

/** A Web Push subscription (migration 025): a web session's or a client API token's. */
export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  session_id: string | null;
  token_id: string | null;
  access_token_sealed: string | null;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** 1: this kind is pushed. */
  alert_follow: number;
  alert_follow_request: number;
  alert_like: number;
  alert_comment: number;
  alert_mention: number;
  policy: PushPolicy;
  created_at: string;
}

/** Mastodon's: from everyone, from people the user follows, from their followers, from no one. */
export type PushPolicy = 'all' | 'followed' | 'follower' | 'none';

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  email_tokens: EmailTokensTable;
  posts: PostsTable;
  post_tags: PostTagsTable;
  post_images: PostImagesTable;
  post_reactions: PostReactionsTable;
  saved_posts: SavedPostsTable;
  followed_tags: FollowedTagsTable;
  explore_hidden: ExploreHiddenTable;
  comments: CommentsTable;
  comment_reactions: CommentReactionsTable;
  follows: FollowsTable;
  follow_requests: FollowRequestsTable;
  media: MediaTable;
  notifications: NotificationsTable;
  post_mentions: PostMentionsTable;
  comment_mentions: CommentMentionsTable;
  two_factor: TwoFactorTable;
  recovery_codes: RecoveryCodesTable;
  retired_usernames: RetiredUsernamesTable;
  blocks: UserRelationTable;
  mutes: UserRelationTable;
  reports: ReportsTable;
  admin_log: AdminLogTable;
  federation_kv: FederationKvTable;
  federation_queue: FederationQueueTable;
  account_list_imports: AccountListImportsTable;
  account_list_import_rows: AccountListImportRowsTable;
  instagram_imports: InstagramImportsTable;
  instagram_import_posts: InstagramImportPostsTable;
  federation_keys: FederationKeysTable;
  federation_followers: FederationFollowersTable;
  federation_domain_blocks: FederationDomainBlocksTable;
  federation_tombstones: FederationTombstonesTable;
  oauth_apps: OAuthAppsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
  push_subscriptions: PushSubscriptionsTable;
}

/** The database or a transaction on it: what repository functions run their queries on. */
export type Queryable = Kysely<Database> | Transaction<Database>;

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type PostRow = Selectable<PostsTable>;
export type MediaRow = Selectable<MediaTable>;
