/**
 * Local people, posts and comments as ActivityPub objects (issue 32, items 1 and 2): a user is a
 * `Person`, a post a `Note` with its photos as its `attachment` (one `Image` each, in order), its tags as `Hashtag`s and
 * the people it names as `Mention`s; a comment a `Note` in reply to its post's.
 */
import type { ActorKeyPair, Context } from '@fedify/fedify';
import { Endpoints, Hashtag, Image, Mention, Note, PUBLIC_COLLECTION, Person, PropertyValue } from '@fedify/vocab';
import { fieldsOf } from '../users/profileFields';
import { aliasesIn } from '../moving/aliases';
import { links } from '../../lib/pages';
import { tagKey } from '../../lib/tags';
import { hashtagTags, mentionKey } from '../../lib/textEntities';
import type { StoredVariant } from '../media/service';
import type { ActorRow, NoteCommentRow, NotePostRow } from './repository';
import { instantOf } from './temporal';
import { fieldHtml } from '../rendering/fieldHtml';
import { messageHtml } from '../rendering/messageHtml';

/** Where this instance is (`PUBLIC_URL`'s origin): every URL in an object is absolute. */
export interface Site {
  url: string;
  host: string;
}

export interface MentionedUser {
  id: string;
  username: string;
  /** Someone elsewhere (issue 32): their actor and profile page there. */
  actor_uri?: string | null;
  url?: string | null;
}

/** A mentioned person's actor: theirs elsewhere, or this instance's. */
const actorOfMentioned = (ctx: Context<unknown>, user: MentionedUser) =>
  user.actor_uri ? new URL(user.actor_uri) : ctx.getActorUri(user.id);

const MEDIA_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
};

/** An image's type from its format or file name; null when neither says. */
export function mediaTypeOf(formatOrUrl: string): string | null {
  const ext = formatOrUrl.split(/[?#]/)[0].split('.').pop()?.toLowerCase() ?? '';
  return MEDIA_TYPES[ext] ?? null;
}

const absolute = (site: Site, path: string) => new URL(path, site.url);

export const profileUrl = (site: Site, username: string) => absolute(site, links.profile(username));
export const postUrl = (site: Site, postId: string) => absolute(site, links.post(postId));
export const tagUrl = (site: Site, tag: string) => absolute(site, links.tagged([tagKey(tag)]));
/** A comment has no page of its own: its id is this path (served in `http.ts`), its `url` the post's page. */
export const commentPath = (commentId: string) => `/comments/${encodeURIComponent(commentId)}`;

/**
 * A message as HTML (server/rendering/messageHtml, as the client API's): the people it names (who
 * exist: `mentioned`) linked to their profiles; `tags`: a post's (see `MessageContext.tags`).
 */
export function messageHtmlOf(site: Site, text: string, mentioned: MentionedUser[], tags?: string[]): string {
  const byKey = new Map(mentioned.map((user) => [mentionKey(user.username), user]));
  const mentionHref = (key: string) => {
    const user = byKey.get(key);
    return user && (user.url ?? user.actor_uri ?? profileUrl(site, user.username).href);
  };
  return messageHtml(text, { origin: new URL(site.url).origin, mentionHref, tags });
}

/** A local user as a `Person`; `keys`: their RSA pair first, then Ed25519 (`keys.ts`). */
export function personOf(ctx: Context<unknown>, site: Site, user: ActorRow, keys: ActorKeyPair[]): Person {
  const picture = (url: string | null) =>
    url ? new Image({ url: absolute(site, url), mediaType: mediaTypeOf(url) }) : null;
  return new Person({
    id: ctx.getActorUri(user.id),
    preferredUsername: user.username,
    name: user.display_name ?? user.username,
    summary: user.description ? messageHtmlOf(site, user.description, []) : null,
    icon: picture(user.avatar),
    image: picture(user.banner),
    url: profileUrl(site, user.username),
    published: instantOf(user.created_at),
    inbox: ctx.getInboxUri(user.id),
    outbox: ctx.getOutboxUri(user.id),
    followers: ctx.getFollowersUri(user.id),
    following: ctx.getFollowingUri(user.id),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    // A follow of them waits for their answer (issue 70): Mastodon shows a lock and says "Requested".
    manuallyApprovesFollowers: Number(user.approve_followers) === 1,
    // Issue 73: their "Suggest my account and show my posts in Explore" setting.
    discoverable: Number(user.discoverable) === 1,
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((key) => key.multikey),
    // Issue 76: the other accounts the person names as theirs, and the one they moved to.
    aliases: aliasesIn(user.also_known_as).map((uri) => new URL(uri)),
    successor: user.moved_to_id
      ? user.moved_to_actor_uri
        ? new URL(user.moved_to_actor_uri)
        : ctx.getActorUri(user.moved_to_id)
      : null,
    // Profile links as Mastodon sends them: `PropertyValue`s whose value is HTML, an address a link.
    attachments: fieldsOf(user.profile_fields).map(
      ({ name, value }) => new PropertyValue({ name, value: fieldHtml(value) }),
    ),
  });
}

/** The largest stored variant of an upload: what a remote server fetches and resizes itself. */
export function largestVariant(media: { variants: string }): StoredVariant | null {
  const variants = JSON.parse(media.variants) as StoredVariant[];
  return variants.reduce<StoredVariant | null>((best, v) => (!best || v.width > best.width ? v : best), null);
}

/** One photo of a post as its Note's `Image` (issue 71: an album has several, in order). */
export interface PostImage {
  url: string;
  mediaType: string | null;
  width: number | null;
  height: number | null;
  /** The photo's alt text: the Image's `name`. */
  alt: string;
}

/** Each address once, in order. */
const distinct = (urls: URL[]) => urls.filter((url, i) => urls.findIndex((u) => u.href === url.href) === i);

const hashtagsOf = (site: Site, tags: string[]) =>
  tags.map((tag) => new Hashtag({ href: tagUrl(site, tag), name: `#${tagKey(tag)}` }));

const mentionTags = (ctx: Context<unknown>, site: Site, mentioned: MentionedUser[]) =>
  mentioned.map(
    (user) =>
      new Mention({
        href: actorOfMentioned(ctx, user),
        name: user.actor_uri ? `@${user.username}` : `@${user.username}@${site.host}`,
      }),
  );

/**
 * `attachment` as an array wherever it is in a document: Fedify's compact JSON writes a single
 * item as a plain object, and Mastodon documents (and some servers only take) the array.
 */
export function attachmentsAsArrays(json: unknown): unknown {
  if (Array.isArray(json)) json.forEach(attachmentsAsArrays);
  else if (json && typeof json === 'object') {
    const record = json as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      if (key === 'attachment' && value !== null && !Array.isArray(value)) record[key] = [value];
      attachmentsAsArrays(value);
    }
  }
  return json;
}

/** A post as a `Note`, its photos its `attachment`, in order. */
export function postNote(
  ctx: Context<unknown>,
  site: Site,
  post: NotePostRow,
  images: PostImage[],
  mentioned: MentionedUser[],
): Note {
  const tags = JSON.parse(post.tags) as string[];
  const sensitive = post.sensitive === 1;
  const updated = post.updated_at !== post.created_at ? instantOf(post.updated_at) : null;
  return new Note({
    id: ctx.getObjectUri(Note, { id: post.id }),
    attribution: ctx.getActorUri(post.creator_id),
    content: messageHtmlOf(site, post.message, mentioned, tags),
    attachments: images.map(
      (image) =>
        new Image({
          url: absolute(site, image.url),
          mediaType: image.mediaType,
          name: image.alt || null,
          width: image.width,
          height: image.height,
        }),
    ),
    tags: [...hashtagsOf(site, tags), ...mentionTags(ctx, site, mentioned)],
    sensitive,
    summary: sensitive && post.spoiler ? post.spoiler : null,
    published: instantOf(post.created_at),
    updated,
    ...addressing(ctx, post, mentioned),
    url: postUrl(site, post.id),
  });
}

/**
 * Whom a post's Note is addressed to, by its audience (issue 70), as Mastodon addresses each
 * visibility: public to everyone (its followers and the people named in cc), unlisted to its
 * followers with everyone in cc, followers-only to its followers alone, and a post for the people
 * named to them alone.
 */
function addressing(ctx: Context<unknown>, post: NotePostRow, mentioned: MentionedUser[]) {
  const followers = ctx.getFollowersUri(post.creator_id);
  const named = mentioned.map((user) => actorOfMentioned(ctx, user));
  switch (post.audience) {
    case 'public':
      return { to: PUBLIC_COLLECTION, ccs: [followers, ...named] };
    case 'unlisted':
      return { to: followers, ccs: [PUBLIC_COLLECTION, ...named] };
    case 'followers':
      return { to: followers };
    case 'mentioned':
      return { tos: named };
  }
}

/**
 * Whom a comment's Note is addressed to: on a public or unlisted post, everyone, with the commenter's
 * followers, the post's author and the people named in cc, as Mastodon addresses a reply; on a post
 * for followers or the people named, its author and the people named only (issue 70).
 */
function commentAddressing(ctx: Context<unknown>, comment: NoteCommentRow, mentioned: MentionedUser[]) {
  const postAuthor = comment.post_creator_actor_uri
    ? new URL(comment.post_creator_actor_uri)
    : ctx.getActorUri(comment.post_creator_id);
  const named = mentioned.map((user) => actorOfMentioned(ctx, user));
  if (comment.post_audience === 'public' || comment.post_audience === 'unlisted')
    return { to: PUBLIC_COLLECTION, ccs: distinct([ctx.getFollowersUri(comment.user_id), postAuthor, ...named]) };
  return { tos: distinct([postAuthor, ...named]) };
}

/** A comment as a `Note` replying to its post's. */
export function commentNote(
  ctx: Context<unknown>,
  site: Site,
  comment: NoteCommentRow,
  mentioned: MentionedUser[],
): Note {
  return new Note({
    id: absolute(site, commentPath(comment.id)),
    attribution: ctx.getActorUri(comment.user_id),
    replyTarget: comment.post_uri ? new URL(comment.post_uri) : ctx.getObjectUri(Note, { id: comment.post_id }),
    // A comment has no tags of its own: the hashtags that can be tags are linked where they stand.
    content: messageHtmlOf(site, comment.message, mentioned),
    tags: [...hashtagsOf(site, hashtagTags(comment.message)), ...mentionTags(ctx, site, mentioned)],
    published: instantOf(comment.created_at),
    ...commentAddressing(ctx, comment, mentioned),
    url: postUrl(site, comment.post_id),
  });
}
