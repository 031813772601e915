/** Post rules: validation (spec section 5), ownership, counters, reactions. */
import { TEXTS } from '../../lib/texts';
import type { Comment, Post, PostWithComments, Reaction, ReactionCounts } from '../../lib/types';
import {
  altError,
  normalizeTag,
  normalizeTags,
  postMessageError,
  spoilerError,
  tagKey,
  tagsError,
  usernameKey,
} from '../../lib/validation';
import type { ListPage } from '../cache/sharedRows';
import type { Transactional } from '../db/repository';
import { ForbiddenError, InvalidError, NotFoundError } from '../domain/errors';
import { isUuid, newId, nowIso } from '../domain/ids';
import type { AuthUser, Page } from '../domain/types';
import type { MediaService } from '../media/service';
import { mentionedUsers } from '../mentions/names';
import type { MentionedUser, MentionsRepository } from '../mentions/repository';
import type { PublishEvent } from '../events/domainEvents';
import { unreadFellFor } from '../events/events';
import { type NotifiedAction, likeChange, notify, notifyEach, withdrawUnread } from '../notifications/notify';
import type { NotificationsRepository } from '../notifications/repository';
import { POST_REACTIONS, type ReactionsRepository } from '../reactions/repository';
import { type HiddenAuthors, type HiddenAuthorsCache, showsContent, showsInFeeds } from '../safety/hiddenAuthors';
import type { SafetyRepository } from '../safety/repository';
import type { UsersRepository } from '../users/repository';
import type { HomeFeed } from './homeFeed';
import type { ImageInfos } from './imageInfos';
import { keepPostJson } from './json';
import { toPost } from './mappers';
import { type PostCache, homeListKey } from './postCache';
import type { PostListRow, PostsRepository } from './repository';

/** A mention notification for each user a post mentions. */
const mentionsOf = (users: MentionedUser[], actor: AuthUser, postId: string): NotifiedAction[] =>
  users.map((u) => ({ type: 'mention', userId: u.id, actorId: actor.id, postId }));

export const postNotFound = () => new NotFoundError('Post not found', 'PostNotFound');

/** The post's id and creator, or a 404 (also for an id that is not a UUID). */
export async function requirePost(posts: Pick<PostsRepository, 'findPostOwner'>, id: string) {
  const post = isUuid(id) ? await posts.findPostOwner(id) : undefined;
  if (!post) throw postNotFound();
  return post;
}

/** As `requirePost`, and a 404 too when the viewer may not see its creator (a block, a suspension). */
export async function requireVisiblePost(
  data: { posts: Pick<PostsRepository, 'findPostOwner'>; safety: Pick<SafetyRepository, 'isHiddenFrom'> },
  viewerId: string,
  id: string,
) {
  const post = await requirePost(data.posts, id);
  if (await data.safety.isHiddenFrom(viewerId, post.creator_id)) throw postNotFound();
  return post;
}

/** Most tags one tag search takes. */
export const SEARCH_TAGS_MAX = 10;

export interface PostInput {
  message?: unknown;
  image?: unknown;
  tags?: unknown;
  alt?: unknown;
  sensitive?: unknown;
  spoiler?: unknown;
}

/** Alt text and the content warning, checked; only the fields the input has. */
function readImageText(input: PostInput): { alt?: string; sensitive?: number; spoiler?: string } {
  const out: { alt?: string; sensitive?: number; spoiler?: string } = {};
  if (input.alt !== undefined) {
    const alt = typeof input.alt === 'string' ? input.alt.trim() : null;
    const error = alt === null ? 'Alt text must be text' : altError(alt);
    if (error) throw new InvalidError(error, 'InvalidAlt');
    out.alt = alt!;
  }
  if (input.spoiler !== undefined) {
    const spoiler = typeof input.spoiler === 'string' ? input.spoiler.trim() : null;
    const error = spoiler === null ? 'The content warning must be text' : spoilerError(spoiler);
    if (error) throw new InvalidError(error, 'InvalidSpoiler');
    out.spoiler = spoiler!;
  }
  if (input.sensitive !== undefined) {
    if (typeof input.sensitive !== 'boolean')
      throw new InvalidError('sensitive must be true or false', 'InvalidSensitive');
    out.sensitive = input.sensitive ? 1 : 0;
  }
  return out;
}

export interface PostsServiceDeps {
  data: Transactional<{
    posts: PostsRepository;
    users: UsersRepository;
    reactions: ReactionsRepository;
    notifications: NotificationsRepository;
    mentions: MentionsRepository;
    safety: SafetyRepository;
  }>;
  media: Pick<MediaService, 'findByUrl'>;
  homeFeed: Pick<HomeFeed, 'page' | 'ids'>;
  imageInfos: ImageInfos;
  postCache: Pick<PostCache, 'rows' | 'page' | 'shares' | 'enabled'>;
  hiddenAuthors: Pick<HiddenAuthorsCache, 'get'>;
  /** A page of a post's comments the reader may see (`CommentsService.visiblePage`). */
  commentsPage: (user: AuthUser, postId: string, page: Page) => Promise<Comment[]>;
  /** Tells the rest of the app what each write changed, once committed. */
  publish: PublishEvent;
}

/** Whether the reader may see the post: anywhere (a read, a profile), or in the feeds too. */
export const contentShows = (row: PostListRow, hidden: HiddenAuthors) =>
  showsContent(hidden, row.creator_id, row.creator_suspended_at);
const feedShows = (row: PostListRow, hidden: HiddenAuthors) =>
  showsInFeeds(hidden, row.creator_id, row.creator_suspended_at);

export function postsService({
  data,
  media,
  homeFeed,
  imageInfos,
  postCache,
  hiddenAuthors,
  commentsPage,
  publish,
}: PostsServiceDeps) {
  const { posts } = data;
  // A row the post cache shares is read by many requests: its Post is made once (and its JSON, json.ts).
  const shared = new WeakMap<PostListRow, Post>();
  async function map(rows: PostListRow[]): Promise<Post[]> {
    if (rows.every((row) => shared.has(row))) return rows.map((row) => shared.get(row)!);
    const infos = await imageInfos(rows.map((row) => row.media_id));
    return rows.map((row) => {
      const known = shared.get(row);
      if (known) return known;
      const info = (row.media_id && infos.get(row.media_id)) || null;
      const post = toPost(row, info);
      // An image whose other variants are still being written is read again next time.
      if (postCache.shares(row) && (row.media_id === null || info?.srcset)) shared.set(row, keepPostJson(post));
      return post;
    });
  }

  /** A cached list page for the reader, or (null) the database's own filtered query. */
  async function cachedPage(
    user: AuthUser,
    page: Page,
    list: Pick<ListPage<PostListRow>, 'ids' | 'allOrNone'> & { key: string; feed: boolean },
    query: () => Promise<PostListRow[]>,
  ): Promise<PostListRow[]> {
    if (!postCache.enabled) return query();
    const hidden = await hiddenAuthors.get(user.id);
    const rows = await postCache.page(user.id, {
      key: `${list.key}|${page.cursor ?? ''}`,
      cursor: page.cursor,
      want: page.limit + 1,
      ids: list.ids,
      shows: list.feed ? (row) => feedShows(row, hidden) : (row) => contentShows(row, hidden),
      allOrNone: list.allOrNone,
    });
    return rows ?? query();
  }

  /** Checks that the image is one of this user's post uploads; returns its media id. */
  async function ownPostImage(user: AuthUser, image: unknown): Promise<{ image: string; mediaId: string }> {
    if (typeof image !== 'string' || image.length === 0) throw new InvalidError('Please add an image', 'ImageRequired');
    const found = await media.findByUrl(image);
    if (!found || found.owner_id !== user.id || found.preset !== 'post') {
      throw new InvalidError('The image must be a post image uploaded here', 'InvalidImage');
    }
    return { image, mediaId: found.id };
  }

  function readTags(raw: unknown): string[] {
    if (!Array.isArray(raw) || raw.some((t) => typeof t !== 'string'))
      throw new InvalidError(TEXTS.tagRequired, 'InvalidTags');
    const tags = normalizeTags(raw as string[]);
    const error = tagsError(tags);
    if (error) throw new InvalidError(error, 'InvalidTags');
    return tags;
  }

  function readMessage(raw: unknown): string {
    const error = postMessageError(typeof raw === 'string' ? raw : null);
    if (error) throw new InvalidError(error, 'InvalidMessage');
    return (raw as string).trim();
  }

  async function load(viewerId: string, id: string): Promise<Post> {
    let row: PostListRow | undefined;
    if (postCache.enabled) {
      const [found] = await postCache.rows(viewerId, [id]);
      if (found && contentShows(found, await hiddenAuthors.get(viewerId))) row = found;
    } else row = await posts.findPost(viewerId, id);
    if (!row) throw postNotFound();
    return (await map([row]))[0];
  }

  return {
    async feed(user: AuthUser, feed: 'following' | 'all', page: Page): Promise<Post[]> {
      if (feed === 'all') {
        const everyone = { key: 'everyone', feed: true, ids: posts.everyoneIds };
        return map(await cachedPage(user, page, everyone, () => posts.allPosts(user.id, page.cursor, page.limit + 1)));
      }
      const home = {
        key: homeListKey(user.id),
        feed: true,
        ids: (after: string | null, count: number) => homeFeed.ids(user.id, after, count),
      };
      return map(await cachedPage(user, page, home, () => homeFeed.page(user.id, page.cursor, page.limit + 1)));
    },

    async tagged(user: AuthUser, rawTags: string, page: Page): Promise<Post[]> {
      const tags = [
        ...new Set(
          rawTags
            .split(',')
            .map((t) => tagKey(normalizeTag(t)))
            .filter(Boolean),
        ),
      ];
      if (tags.length === 0) throw new InvalidError(TEXTS.tagRequired, 'InvalidTags');
      if (tags.length > SEARCH_TAGS_MAX)
        throw new InvalidError(`Search at most ${SEARCH_TAGS_MAX} tags at once`, 'InvalidTags');
      const query = () => posts.taggedPosts(user.id, tags, page.cursor, page.limit + 1);
      if (tags.length > 1) return map(await query());
      const [tag] = tags;
      const withTag = {
        key: `tag|${tag}`,
        feed: true,
        ids: (after: string | null, count: number) => posts.idsWithTag(tag, after, count),
      };
      return map(await cachedPage(user, page, withTag, query));
    },

    async byUser(user: AuthUser, username: string, page: Page): Promise<Post[]> {
      const byCreator = {
        key: `user|${usernameKey(username)}`,
        feed: false,
        // One creator: hidden from the reader, all their posts are (the database then says why).
        allOrNone: true,
        ids: (after: string | null, count: number) => posts.idsByCreator(username, after, count),
      };
      const rows = await cachedPage(user, page, byCreator, () =>
        posts.postsByCreator(user.id, username, page.cursor, page.limit + 1),
      );
      // No rows: a user without posts (below the cursor) gets an empty page, an unknown one a 404,
      // as does one the viewer may not see (suspended, or blocking the viewer: the blocker sees []).
      if (rows.length === 0) {
        const creator = await data.users.findUserByUsername(username);
        if (!creator || (creator.id !== user.id && creator.suspended_at !== null))
          throw new NotFoundError('User not found', 'UserNotFound');
        if ((await data.safety.relationsBetween(user.id, creator.id)).blocksMe)
          throw new NotFoundError('User not found', 'UserNotFound');
      }
      return map(rows);
    },

    async create(user: AuthUser, input: PostInput): Promise<Post> {
      const message = readMessage(input.message);
      const tags = readTags(input.tags);
      const imageText = readImageText(input);
      const { image, mediaId } = await ownPostImage(user, input.image);
      const id = newId();
      const now = nowIso();
      const notified = await data.transaction(async (trx) => {
        const mentioned = await mentionedUsers(trx.mentions, message, user.id);
        await trx.posts.insertPost({
          id,
          creator_id: user.id,
          message,
          image,
          media_id: mediaId,
          tags: JSON.stringify(tags),
          ...imageText,
          created_at: now,
          updated_at: now,
        });
        await trx.posts.replaceTags(id, tags);
        await trx.users.addToCounter(user.id, 'posts_count', 1);
        await trx.mentions.addPostMentions(
          id,
          mentioned.map((u) => u.id),
        );
        return notifyEach(trx.notifications, mentionsOf(mentioned, user, id));
      });
      publish({ type: 'PostCreated', postId: id, creatorId: user.id, notifications: notified });
      return load(user.id, id);
    },

    /**
     * The post with its newest `commentsLimit` comments and one more, which only says that older
     * ones exist (the route turns it into the `Link` to them, as for any list).
     */
    async get(user: AuthUser, id: string, commentsLimit: number): Promise<PostWithComments> {
      if (!isUuid(id)) throw postNotFound();
      const post = await load(user.id, id);
      return { ...post, comments: await commentsPage(user, id, { cursor: null, limit: commentsLimit }) };
    },

    async edit(user: AuthUser, id: string, input: PostInput): Promise<Post> {
      const post = await requirePost(posts, id);
      if (post.creator_id !== user.id) throw new ForbiddenError('Only the creator can edit this post');
      const changes: {
        message?: string;
        image?: string;
        media_id?: string;
        tags?: string;
        alt?: string;
        sensitive?: number;
        spoiler?: string;
        updated_at: string;
      } = { ...readImageText(input), updated_at: nowIso() };
      let tags: string[] | undefined;
      if (input.message !== undefined) changes.message = readMessage(input.message);
      if (input.tags !== undefined) {
        tags = readTags(input.tags);
        changes.tags = JSON.stringify(tags);
      }
      if (input.image !== undefined) {
        const { image, mediaId } = await ownPostImage(user, input.image);
        changes.image = image;
        changes.media_id = mediaId;
      }
      const notified = await data.transaction(async (trx) => {
        await trx.posts.updatePost(id, changes);
        if (tags) await trx.posts.replaceTags(id, tags);
        if (changes.message === undefined) return [];
        const mentioned = await mentionedUsers(trx.mentions, changes.message, user.id);
        // Only the newly mentioned hear of it; those no longer mentioned lose the link.
        const before = new Set(await trx.mentions.postMentionIds(id));
        const now = new Set(mentioned.map((u) => u.id));
        await trx.mentions.removePostMentions(
          id,
          [...before].filter((userId) => !now.has(userId)),
        );
        const added = mentioned.filter((u) => !before.has(u.id));
        await trx.mentions.addPostMentions(
          id,
          added.map((u) => u.id),
        );
        return notifyEach(trx.notifications, mentionsOf(added, user, id));
      });
      publish({ type: 'PostEdited', postId: id, tagsChanged: tags !== undefined, notifications: notified });
      return load(user.id, id);
    },

    async remove(user: AuthUser, id: string): Promise<{ _id: string }> {
      const post = await requirePost(posts, id);
      if (post.creator_id !== user.id && user.role !== 'admin')
        throw new ForbiddenError('Only the creator can delete this post');
      const recipients = await data.transaction(async (trx) => {
        // Its notifications go with it: whose unread count falls is read first.
        const recipients = await trx.notifications.unreadRecipientsAbout({ postId: id });
        // Tags, reactions, comments, their reactions and the notifications go with it (ON DELETE
        // CASCADE). The same delete arriving twice at once: only the one that removed the row counts it.
        if (!(await trx.posts.deletePost(id))) throw postNotFound();
        await trx.users.addToCounter(post.creator_id, 'posts_count', -1);
        return recipients;
      });
      publish({
        type: 'PostDeleted',
        postId: id,
        creatorId: post.creator_id,
        notifications: unreadFellFor(recipients),
      });
      return { _id: id };
    },

    async react(user: AuthUser, id: string, kind: Reaction): Promise<ReactionCounts> {
      await requireVisiblePost(data, user.id, id);
      const { counts, notified } = await data.transaction(async (trx) => {
        const counts = await trx.reactions.toggle(POST_REACTIONS, id, user.id, kind);
        const change = counts && likeChange(kind, counts.myReaction);
        if (!change) return { counts, notified: null };
        const { creator_id: creatorId } = (await trx.posts.findPostOwner(id))!;
        if (change === 'removed') {
          const unread = { userId: creatorId, type: 'like', actorId: user.id, subjectId: id } as const;
          return { counts, notified: await withdrawUnread(trx.notifications, unread) };
        }
        const notified = await notify(trx.notifications, {
          type: 'like',
          userId: creatorId,
          actorId: user.id,
          postId: id,
        });
        return { counts, notified };
      });
      if (!counts) throw postNotFound();
      // The new like's notification, or the unread one taken back: the streams hear of either.
      publish({ type: 'PostReacted', postId: id, userId: user.id, notifications: notified ? [notified] : [] });
      return counts;
    },
  };
}

export type PostsService = ReturnType<typeof postsService>;
