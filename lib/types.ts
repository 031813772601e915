import type { Language } from './i18n/languages';
/** Domain types of the HTTP contract (API.md). Shared by the client and the server. */
import type { ProfileField } from './profileFields';
import type { Audience } from './audience';

export type { ProfileField };
import type { PhotoCrop } from './photoCrop';

export type Role = 'member' | 'admin';
export type Reaction = 'like' | 'dislike';

/** The signed-in user. */
export interface User {
  _id: string;
  username: string;
  /** The name shown above `@username` (issue 68, item 32); null: the username shows. */
  displayName: string | null;
  email: string;
  avatar: string | null;
  banner: string | null;
  description: string;
  /** Admins may delete any post or comment (API.md, Roles). */
  role: Role;
  followersCount: number;
  followingCount: number;
  postsCount: number;
  createdAt: string;
  /** The user has opened the link mailed to `email` (issue 22). */
  emailVerified: boolean;
  /** A new address waiting for its link to be opened; `email` changes only then. */
  pendingEmail: string | null;
  /** Their profile links, at most four (issue 68, item 32). */
  fields: ProfileField[];
  /** A follow of them waits for their approval (issue 70). */
  approveFollowers: boolean;
  /** The audience their new posts start with (issue 70). */
  defaultAudience: Audience;
  /** Suggested to others, and their public posts in Explore (issue 73, Mastodon's `discoverable`). */
  discoverable: boolean;
  /** The language they chose for the app (issue 75); null: the cookie or the browser's languages decide. */
  language?: Language | null;
  /** The account this one moved to (issue 76): it takes no new posts. Absent when not moved. */
  movedTo?: MovedTo;
}

/** An account a person names as theirs (issue 76): its actor's address, and `name@host` when known here. */
export interface AccountAlias {
  uri: string;
  address: string | null;
}

/** The account a person moved to (issue 76): here, or someone elsewhere (`name@host`). */
export interface MovedTo {
  _id: string;
  username: string;
  displayName: string | null;
}

/** Anyone's public profile: never an email. */
export interface Profile {
  _id: string;
  username: string;
  /** The name shown above `@username`; null: the username shows. */
  displayName: string | null;
  /** Their profile links; `verifiedAt` once the linked page links back with `rel="me"`. */
  fields: ProfileField[];
  avatar: string | null;
  banner: string | null;
  description: string;
  followersCount: number;
  followingCount: number;
  postsCount: number;
  followedByMe: boolean;
  /** A follow of them waits for their approval (issue 70): the follow button says Request. */
  approveFollowers: boolean;
  /** The viewer asked to follow them and they have not answered: the button says Requested. */
  followRequestedByMe: boolean;
  /** They may be suggested to others and their public posts shown in Explore (issue 73; Mastodon's `discoverable`). */
  discoverable: boolean;
  /** The viewer blocks this user: the profile shows, their posts and comments do not. */
  blockedByMe: boolean;
  /** The viewer mutes this user: their posts leave the viewer's feeds, they notify the viewer no more. */
  mutedByMe: boolean;
  createdAt: string;
  /** Someone on another server (issue 32): their profile page there. Absent for this instance's people. */
  remoteUrl?: string;
  /** Someone on another server: their actor's address (ActivityPub id). Absent for this instance's people. */
  remoteUri?: string;
  /** Someone on a silenced server (a domain block `silence`): `true`. Absent otherwise. */
  silenced?: true;
  /** The account this one moved to (issue 76): the profile says so and links it. Absent when not moved. */
  movedTo?: MovedTo;
}

export interface UserSummary {
  _id: string;
  username: string;
  avatar: string | null;
  description: string;
}

/** One person found by `GET /api/users/search`. */
export interface PersonResult extends UserSummary {
  followedByMe: boolean;
  /** `true` while the viewer's follow request waits for their answer (issue 70): the button says Requested. Absent otherwise. */
  followRequestedByMe?: true;
}

/** A tag trending in Explore (issue 73): its key, how many people and posts of the last days made it. */
export interface TrendingTag {
  tag: string;
  people: number;
  posts: number;
}

/** What `GET /api/explore` answers (issue 73): trending posts and tags, and people to follow. */
export interface Explore {
  posts: Post[];
  tags: TrendingTag[];
  people: PersonResult[];
}

/** A post or tag an admin hid from the trends (issue 73): the post's id or the tag's key. */
export interface HiddenFromTrends {
  kind: 'post' | 'tag';
  subject: string;
  createdAt: string;
}

export interface ImageInfo {
  width: number;
  height: number;
  thumbhash: string | null;
  /** `url widthw` candidates, smallest first. */
  srcset: string;
}

/** One photo of a post (issue 71), in the order the author chose. */
export interface PostImage {
  image: string;
  imageInfo: ImageInfo | null;
  /** Its description; '' when the author wrote none. */
  alt: string;
  /** Where feeds crop it (lib/photoCrop.ts). */
  crop: PhotoCrop;
}

/** Why a post is in the reader's home feed (`Post.reason`). */
export interface PostReason {
  tag: string;
}

export interface Post {
  _id: string;
  message: string;
  image: string;
  imageInfo: ImageInfo | null;
  tags: string[];
  creator: string;
  /** The creator's display name (issue 68, item 32); absent when they have none. */
  creatorName?: string;
  creatorImage: string | null;
  likesCount: number;
  dislikesCount: number;
  commentsCount: number;
  myReaction: Reaction | null;
  /** Present (true) only on a post the viewer saved (issue 73): nobody else learns of a save. */
  savedByMe?: boolean;
  /**
   * Why a post is in the reader's home feed when no person they follow brought it (issue 73): a
   * tag they follow, as the post writes it. Absent everywhere else.
   */
  reason?: PostReason;
  /** The image's description; '' when the author wrote none (the generated text stands in). */
  alt: string;
  /** The image shows blurred behind `spoiler` until the viewer asks for it. */
  sensitive: boolean;
  spoiler: string;
  /** Where feeds crop the photo (lib/photoCrop.ts); absent: the centre. */
  crop?: PhotoCrop;
  /**
   * Every photo of the post in order (issue 71, albums): the first is `image`, `imageInfo`, `alt`
   * and `crop` above, which stay for clients that know one photo.
   */
  images: PostImage[];
  createdAt: string;
  updatedAt: string;
  /** The usernames `@mentioned` in the message that exist, as stored (lib/textEntities.ts). */
  mentions?: string[];
  /** A post from another server (issue 32): the original's page there. Absent for this instance's posts. */
  originalUrl?: string;
  /** A post from another server: its Note's id (ActivityPub). Absent for this instance's posts. */
  originalUri?: string;
  /** Who may see it (lib/audience.ts, issue 70). */
  audience: Audience;
  /** An imported post's origin (issue 76): 'instagram'; its `createdAt` is the original's date. */
  importedFrom?: string;
}

export interface PostWithComments extends Post {
  comments: Comment[];
}

export interface Comment {
  commentId: string;
  message: string;
  creator: string;
  /** The creator's display name (issue 68, item 32); absent when they have none. */
  creatorName?: string;
  creatorImage: string | null;
  likesCount: number;
  dislikesCount: number;
  myReaction: Reaction | null;
  createdAt: string;
  /** The usernames `@mentioned` in the message that exist, as stored (lib/textEntities.ts). */
  mentions?: string[];
  /** A comment from another server (issue 32): its Note's id. Absent for this instance's comments. */
  originalUri?: string;
}

export interface ReactionCounts {
  likesCount: number;
  dislikesCount: number;
  myReaction: Reaction | null;
}

export interface UploadResult {
  secure_url: string;
  public_id: string;
  width: number;
  height: number;
  format: string;
  bytes: number;
  thumbhash: string | null;
}

export interface ApiError {
  message: string;
  code: string;
}

/** Public facts about this instance (`GET /api/instance`), for the contact page and the composer. */
export interface InstanceInfo {
  name: string;
  contactEmail: string;
  /** The photos one post holds at most (`MAX_POST_IMAGES`; issue 71). */
  maxPostImages: number;
}

export type NotificationType = 'follow' | 'followRequest' | 'like' | 'comment' | 'mention' | 'commentLike';

/** One notification of the signed-in user (`GET /api/notifications`, the stream's `data:`). */
export interface AppNotification {
  id: string;
  type: NotificationType;
  read: boolean;
  createdAt: string;
  /** `followedByMe`: the recipient follows the actor (a follow's Follow back button). */
  actor: { username: string; avatar: string | null; followedByMe: boolean };
  post: { _id: string; image: string } | null;
  comment: { commentId: string; message: string } | null;
}

export type ReportTargetType = 'post' | 'comment' | 'user';
export type ReportReason = 'spam' | 'abuse' | 'illegal' | 'other';
export type ReportAction = 'dismiss' | 'removeContent' | 'suspendUser';
export type AdminAction =
  | ReportAction
  | 'unsuspendUser'
  | 'silenceDomain'
  | 'suspendDomain'
  | 'unblockDomain'
  | 'hideFromTrends'
  | 'showInTrends';
/** A blocked domain's severity (issue 32): silenced people are hidden from non-followers; suspended ones refused. */
export type DomainSeverity = 'silence' | 'suspend';

/** `GET /api/admin/domains`: a blocked domain. */
export interface DomainBlock {
  domain: string;
  severity: DomainSeverity;
  createdAt: string;
  updatedAt: string;
}

/** What the admin queue shows of a report's target; null once the content is gone. */
export type ReportTarget =
  | { type: 'post'; _id: string; message: string; image: string; alt: string; creator: string }
  | { type: 'comment'; commentId: string; postId: string; message: string; creator: string }
  | { type: 'user'; username: string; avatar: string | null; description: string; suspended: boolean };

/** One report in the admin queue (admins only: the note is the reporter's words to them). */
export interface Report {
  id: string;
  targetType: ReportTargetType;
  targetId: string;
  reason: ReportReason;
  note: string;
  status: 'open' | 'resolved';
  reporter: string;
  createdAt: string;
  resolvedAt: string | null;
  resolvedBy: string | null;
  resolution: ReportAction | null;
  target: ReportTarget | null;
}

/** One line of the admin log: who did what to what, when. */
export interface AdminLogEntry {
  id: string;
  admin: string;
  action: AdminAction;
  targetType: ReportTargetType | 'domain' | 'tag';
  targetId: string;
  target: string;
  note: string;
  createdAt: string;
}

/** The admin overview (`GET /api/admin/overview`): how the instance is doing. */
export interface AdminOverview {
  /** `active30d`: used a session in the last 30 days; `signedUpThisWeek`: in the last 7 days. */
  people: { total: number; active30d: number; signedUpThisWeek: number };
  /** The last 30 UTC days, oldest first, every day present. */
  activity: { day: string; posts: number; comments: number }[];
  openReports: number;
  /** Bytes of every stored image file (all variants). */
  mediaBytes: number;
  /** This instance's upload jobs and mails waiting or being sent. */
  queues: { imageJobs: { running: number; queued: number }; mailOutbox: number };
  /** Every instance heard on the bus (this one alone without Redis), this one first. */
  instances: InstanceStatus[];
}

/** One instance as the admin overview lists it (server/instance/presence.ts). */
export interface InstanceStatus {
  id: string;
  /** Heard within the last three heartbeats, and its database answered it. */
  healthy: boolean;
  /** When the answering instance last heard it (its own clock), ISO. */
  lastSeen: string;
  startedAt: string;
  database: 'up' | 'down';
  /** The instance answering this request. */
  self: boolean;
}

/** The admin's user lookup. */
export interface AdminUserInfo {
  username: string;
  role: 'member' | 'admin';
  avatar: string | null;
  postsCount: number;
  createdAt: string;
  suspendedAt: string | null;
}

/** One sign-in of the viewer's account (GET /api/auth/sessions). */
export interface SessionInfo {
  id: string;
  userAgent: string | null;
  createdAt: string;
  lastUsedAt: string;
  /** The session this request came with ("this device"). */
  current: boolean;
}

/** An app the viewer let use their account through the Mastodon client API (GET /api/auth/apps). */
export interface AuthorizedApp {
  id: string;
  name: string;
  website: string | null;
  scopes: string[];
  authorizedAt: string;
}

/** Issue 76: a row of an imported list that could not be applied, and why. */
export interface ListImportFailure {
  line: number;
  address: string;
  error: string;
}

/** Issue 76: a post found in an Instagram archive, and what became of it. */
export interface InstagramFoundPost {
  /** Its place in the archive (oldest first): what `start` picks by. */
  position: number;
  /** The original date. */
  takenAt: string;
  /** The caption as Instagram wrote it (decoded; its message and tags come from it), or a Posts export's message. */
  caption: string;
  /** Photos that will be (or were) imported. */
  photos: number;
  /** Media it named that are not imported: missing from the archive, videos, or beyond a post's photos. */
  leftOut: number;
  /** 'found': waiting for the pick; 'skipped': not picked (or no photo to import). */
  status: 'found' | 'pending' | 'done' | 'failed' | 'skipped';
  error: string | null;
  /** The post made, once done. */
  postId: string | null;
}

/**
 * Issue 76: the profile settings a Posts export holds (its account.json), applied when its import
 * starts if asked; never the email, password, username or role.
 */
export interface ImportSettings {
  displayName?: string | null;
  description?: string;
  fields?: { name: string; value: string }[];
  defaultAudience?: Audience;
  approveFollowers?: boolean;
  discoverable?: boolean;
}

/** Issue 76: an archive's import (`/api/imports/instagram`): Instagram's, or a Posts export; and how far it got. */
export interface InstagramImport {
  id: string;
  /** The archive's kind, told from its contents. */
  kind: 'instagram' | 'posts';
  /** A Posts export's profile settings, to bring if asked at the start; null for Instagram's. */
  settings: ImportSettings | null;
  state: 'ready' | 'running' | 'finished' | 'cancelled';
  /** Posts picked; done + failed + pending. */
  total: number;
  done: number;
  failed: number;
  pending: number;
  posts: InstagramFoundPost[];
  createdAt: string;
  finishedAt: string | null;
}

/** Issue 76: an import of a Mastodon CSV list (`/api/users/me/list-imports`) and how far it got. */
export interface ListImport {
  id: string;
  type: 'follows' | 'blocks' | 'mutes';
  mode: 'merge' | 'overwrite';
  state: 'running' | 'finished';
  /** The distinct accounts the file names; done + failed + pending. */
  total: number;
  done: number;
  failed: number;
  pending: number;
  /** The first 50 failed rows, in the file's order. */
  failures: ListImportFailure[];
  createdAt: string;
  finishedAt: string | null;
}
