/**
 * Posts' own shapes as Mastodon's entities (docs.joinmastodon.org/entities): a post is a status
 * with its one image, a comment a status in reply to the post, a like a favourite. Ids are the
 * same ids, dates ISO 8601 with milliseconds (as stored).
 */
import { NOTIFICATION_ICON_PATH } from '../../lib/pwa';
import { MASTODON_VISIBILITY } from '../../lib/audience';
import type { Language } from '../../lib/i18n/languages';
import { type PhotoCrop, mastodonFocus } from '../../lib/photoCrop';
import type { Comment, Post, Profile, ProfileField, User } from '../../lib/types';
import { mentionKey } from '../../lib/textEntities';
import { usernameKey } from '../../lib/validation';
import { blurhashOfThumbhash } from '../media/blurhash';
import { fieldHtml } from '../rendering/fieldHtml';
import { messageHtml } from '../rendering/messageHtml';

/** The site's origin for links (`url`, `uri`): PUBLIC_URL, else the request's own. */
export type Site = string;

/** A status's `mentions` entry: whom an `@name` names. */
export interface MentionEntity {
  id: string;
  username: string;
  url: string;
  acct: string;
}

export const mentionOf = (account: Account): MentionEntity => ({
  id: account.id,
  username: account.username,
  url: account.url,
  acct: account.acct,
});

/** The `mentions` of those a post or comment names who are still here (a deleted person is left out). */
export const mentionsStillHere = (
  names: string[] | undefined,
  mentionNamed: (key: string) => MentionEntity | undefined,
): MentionEntity[] =>
  (names ?? []).flatMap((name) => {
    const mention = mentionNamed(usernameKey(name));
    return mention ? [mention] : [];
  });

/**
 * The text as Mastodon's HTML `content` (server/rendering/messageHtml, as ActivityPub's): an `@name`
 * or `@name@host` links to the `url` of its entry in `mentions` (what apps match to open the
 * profile) and stays text when it has none; `tags`: a post's (see `MessageContext.tags`).
 */
export function contentOf(
  site: Site,
  text: string,
  mentions: readonly MentionEntity[] = [],
  tags?: readonly string[],
): string {
  const byKey = new Map(mentions.map((m) => [mentionKey(m.acct), m.url]));
  return messageHtml(text, { origin: site, mentionHref: (key) => byKey.get(key), tags });
}

/**
 * Media's own paths (`/media/...`) as full addresses: apps load images from what they are given, and
 * a path means nothing to them. Addresses already full (a bucket's, `MEDIA_PUBLIC_URL`) stay.
 */
export const absoluteUrl = (site: Site, url: string) => (url.startsWith('/') ? `${site}${url}` : url);

/** What an Account shows of a person: a Profile, the User, or an author's public facts. */
type AccountFacts = Pick<
  Profile | User,
  | '_id'
  | 'username'
  | 'displayName'
  | 'fields'
  | 'createdAt'
  | 'description'
  | 'avatar'
  | 'banner'
  | 'followersCount'
  | 'followingCount'
  | 'postsCount'
  | 'approveFollowers'
  | 'discoverable'
> &
  Pick<Profile, 'remoteUrl' | 'remoteUri' | 'silenced'>;

/** A profile link as Mastodon's Field: `value` is HTML (server/rendering/fieldHtml). */
const fieldOf = (field: ProfileField) => ({
  name: field.name,
  value: fieldHtml(field.value),
  verified_at: field.verifiedAt,
});

/**
 * A person as an Account. Someone elsewhere (issue 32) is `acct` `name@host` (their username here),
 * `username` `name`, `url` their page on their server and `uri` their actor, as Mastodon shows them.
 */
export function toAccount(site: Site, profile: AccountFacts) {
  const remote = profile.remoteUri !== undefined;
  const name = remote ? profile.username.slice(0, profile.username.lastIndexOf('@')) : profile.username;
  const url = remote
    ? profile.remoteUrl || profile.remoteUri!
    : `${site}/profile/${encodeURIComponent(profile.username)}`;
  return {
    id: profile._id,
    username: name,
    acct: profile.username,
    display_name: profile.displayName ?? name,
    // A follow of them waits for their approval (issue 70).
    locked: profile.approveFollowers,
    bot: false,
    discoverable: profile.discoverable,
    group: false,
    created_at: profile.createdAt,
    note: profile.description ? contentOf(site, profile.description) : '',
    url,
    uri: remote ? profile.remoteUri! : url,
    // No avatar: the app's icon, a PNG every client can draw (there is no /favicon.ico).
    avatar: absoluteUrl(site, profile.avatar ?? NOTIFICATION_ICON_PATH),
    avatar_static: absoluteUrl(site, profile.avatar ?? NOTIFICATION_ICON_PATH),
    header: profile.banner ? absoluteUrl(site, profile.banner) : '',
    header_static: profile.banner ? absoluteUrl(site, profile.banner) : '',
    followers_count: profile.followersCount,
    following_count: profile.followingCount,
    statuses_count: profile.postsCount,
    last_status_at: null,
    emojis: [],
    fields: profile.fields.map(fieldOf),
    // Mastodon's mark for someone whose server a moderator limited (a domain block `silence`).
    ...(profile.silenced && { limited: true }),
  };
}

export type Account = ReturnType<typeof toAccount>;

/** The signed-in user's own account, with `source` (verify_credentials, update_credentials). */
export function toCredentialAccount(site: Site, user: User, followRequestsCount = 0) {
  return {
    ...toAccount(site, user),
    source: {
      privacy: MASTODON_VISIBILITY[user.defaultAudience],
      sensitive: false,
      // The language their statuses are given (issue 75, statusBase below); null when none chosen.
      language: user.language ?? null,
      note: user.description,
      // The plain texts, as typed (Mastodon's `source.fields`).
      fields: user.fields.map((f) => ({ name: f.name, value: f.value, verified_at: f.verifiedAt })),
      follow_requests_count: followRequestsCount,
    },
    role: {
      id: user.role === 'admin' ? '3' : '-99',
      name: user.role === 'admin' ? 'Admin' : '',
      permissions: '0',
      color: '',
      highlighted: user.role === 'admin',
    },
  };
}

/**
 * The id of a post's photo as an attachment (issue 71): the post's id for the first (as before
 * albums), `<post id>_<position>` for the others, so that an edit's `media_ids` can name them.
 */
export const attachmentIdOf = (postId: string, position: number) => (position === 0 ? postId : `${postId}_${position}`);

/** The position of the post's photo an attachment id names, or null when it names none of them. */
export function positionOfAttachment(postId: string, id: string): number | null {
  if (id === postId) return 0;
  if (!id.startsWith(`${postId}_`)) return null;
  const position = Number(id.slice(postId.length + 1));
  return Number.isInteger(position) && position > 0 ? position : null;
}

/** A post's image as a media attachment. */
export function imageAttachment(
  site: Site,
  id: string,
  url: string,
  info: { width: number; height: number; srcset: string; thumbhash: string | null } | null,
  description: string | null,
  crop?: PhotoCrop,
) {
  // The smallest WebP variant stands in as the preview; the original when there is none yet.
  const preview = info?.srcset.split(', ')[0]?.split(' ')[0] || url;
  return {
    id,
    type: 'image' as const,
    url: absoluteUrl(site, url),
    preview_url: absoluteUrl(site, preview),
    remote_url: null,
    preview_remote_url: null,
    text_url: null,
    description,
    // Derived from the image's ThumbHash (kept in memory once derived).
    blurhash: blurhashOfThumbhash(info?.thumbhash),
    meta: info
      ? {
          original: {
            width: info.width,
            height: info.height,
            size: `${info.width}x${info.height}`,
            aspect: info.width / info.height,
          },
          // Mastodon's focal point (x, y in -1…1, y up); "fit" has no Mastodon form: the centre.
          ...(crop && !crop.fit && { focus: mastodonFocus(crop) }),
        }
      : {},
  };
}

type Visibility = (typeof MASTODON_VISIBILITY)[keyof typeof MASTODON_VISIBILITY];

/**
 * `language`: the author's (`users.language`, issue 75): Posts keeps none per post, and a person
 * writes most likely in the language they use the app in. Null when they chose none, as Mastodon
 * answers for a language it does not know.
 */
const statusBase = <A extends Account | null>(site: Site, id: string, account: A, language: Language | null) => ({
  id,
  uri: `${site}/post/${id}`,
  url: `${site}/post/${id}`,
  visibility: 'public' as Visibility,
  language,
  reblogs_count: 0,
  reblogged: false,
  muted: false,
  bookmarked: false,
  pinned: false,
  reblog: null,
  application: null,
  card: null,
  poll: null,
  emojis: [],
  filtered: [],
  account,
});

/**
 * `account` null: the status without it, for a list that writes each account once (statuses.ts).
 * `mentions`: the people the post names (`post.mentions`) as entries. A post from elsewhere has its
 * Note's id as `uri` and the original's page as `url`.
 */
export function postStatus<A extends Account | null>(
  site: Site,
  post: Post,
  account: A,
  language: Language | null,
  mentions: readonly MentionEntity[] = [],
) {
  return {
    ...statusBase(site, post._id, account, language),
    visibility: MASTODON_VISIBILITY[post.audience],
    uri: post.originalUri ?? `${site}/post/${post._id}`,
    url: post.originalUrl ?? `${site}/post/${post._id}`,
    created_at: post.createdAt,
    edited_at: post.updatedAt !== post.createdAt ? post.updatedAt : null,
    in_reply_to_id: null,
    in_reply_to_account_id: null,
    sensitive: post.sensitive,
    spoiler_text: post.spoiler,
    content: contentOf(site, post.message, mentions, post.tags),
    text: post.message,
    replies_count: post.commentsCount,
    favourites_count: post.likesCount,
    favourited: post.myReaction === 'like',
    // The viewer's own save (issue 73): only ever true for them.
    bookmarked: post.savedByMe === true,
    media_attachments: post.images.map((photo, i) =>
      imageAttachment(site, attachmentIdOf(post._id, i), photo.image, photo.imageInfo, photo.alt || null, photo.crop),
    ),
    mentions: [...mentions],
    tags: post.tags.map((name) => ({ name, url: `${site}/tagged/${encodeURIComponent(name)}` })),
  };
}

/** A comment as a reply to its post's status; seen by those who may see the post, so its visibility is the post's. */
export function commentStatus(
  site: Site,
  comment: Comment,
  post: Pick<Post, '_id' | 'audience'>,
  postAccountId: string | null,
  account: Account,
  language: Language | null,
  mentions: readonly MentionEntity[] = [],
) {
  const postId = post._id;
  return {
    ...statusBase(site, comment.commentId, account, language),
    visibility: MASTODON_VISIBILITY[post.audience],
    // From elsewhere: its Note's id, for both (no page of its own is kept; Mastodon falls back alike).
    url: comment.originalUri ?? `${site}/post/${postId}#${comment.commentId}`,
    uri: comment.originalUri ?? `${site}/post/${postId}#${comment.commentId}`,
    created_at: comment.createdAt,
    edited_at: null,
    in_reply_to_id: postId,
    in_reply_to_account_id: postAccountId,
    sensitive: false,
    spoiler_text: '',
    content: contentOf(site, comment.message, mentions),
    text: comment.message,
    replies_count: 0,
    favourites_count: comment.likesCount,
    favourited: comment.myReaction === 'like',
    media_attachments: [],
    mentions: [...mentions],
    tags: [],
  };
}

export type Status = ReturnType<typeof postStatus> | ReturnType<typeof commentStatus>;
