/** Writing posts: create, edit, delete, react. Each commits, then publishes its event (events/events.ts). */
import { tagKey, usernameKey } from '../../lib/validation';
import type { Audience } from '../../lib/audience';
import type { Post, Reaction, ReactionCounts } from '../../lib/types';
import type { Transactional } from '../db/repository';
import { ForbiddenError, InvalidError } from '../domain/errors';
import { newId, nowIso } from '../domain/ids';
import type { AuthUser } from '../domain/types';
import type { PublishEvent } from '../events/domainEvents';
import { unreadFellFor } from '../events/events';
import type { MediaService } from '../media/service';
import { type MentionRules, type NamedInText, mentionedUsersSteps, namedInText } from '../mentions/names';
import { type MentionedUser, type MentionsRepository, addPostMentionsSteps } from '../mentions/repository';
import {
  type NotifiedAction,
  likeChange,
  notifyEach,
  notifyEachSteps,
  notifySteps,
  withdrawSteps,
} from '../notifications/notify';
import type { NotificationsRepository } from '../notifications/repository';
import { POST_REACTIONS, type ReactionsRepository, toggleSteps } from '../reactions/repository';
import { type UsersRepository, addToCounterSteps } from '../users/repository';
import { postNotFound, requirePost, requireVisiblePostSteps } from './access';
import {
  type PostInput,
  ownPostImage,
  ownPostImages,
  photosGiven,
  readAudience,
  readImageText,
  readMessage,
  readPostTags,
  withHashtags,
} from './input';
import { type PhotoRow, type PostGiven, type PostsRepository, audienceAmongSteps, insertPostSteps } from './repository';

/** A mention notification for each user (by id) a post mentions. */
const mentionsOf = (userIds: string[], actor: AuthUser, postId: string): NotifiedAction[] =>
  userIds.map((userId) => ({ type: 'mention', userId, actorId: actor.id, postId }));

export interface PostWritesDeps {
  data: Transactional<{
    posts: PostsRepository;
    users: UsersRepository;
    reactions: ReactionsRepository;
    notifications: NotificationsRepository;
    mentions: MentionsRepository;
  }>;
  media: Pick<MediaService, 'findByUrl' | 'removeUnused'>;
  /** Files of a deleted post or of photos an `Update` took out that could not be removed (the write stands). */
  onFilesLeft?: (error: unknown) => void;
  /** The post as the writer reads it now: what a create or an edit answers. */
  load: (viewer: AuthUser, id: string) => Promise<Post>;
  /** Tells the rest of the app what each write changed, once committed. */
  publish: PublishEvent;
  /** Mention notifications one author may send a minute (`RATE_LIMIT_MENTIONS_PER_USER`). */
  mentionsPerMinute: number;
  /** This site's host and the look-up of people elsewhere a text names (`mentions/names.ts`). */
  mentionRules?: MentionRules;
  /** Throws when the author may post no more: a moved account (`moving/service.ts`, `assertMayPost`). */
  mayPost?: (user: AuthUser) => Promise<void>;
  /** The audience the author's new posts start with (their setting); public when unknown. */
  defaultAudience?: (user: AuthUser) => Promise<Audience | undefined>;
  /** Photos one post holds at most (`MAX_POST_IMAGES`, issue 71). */
  maxImages: number;
}

/**
 * A post from elsewhere (issue 32), as its server wrote it: not held to this instance's input rules
 * (tags may be none, the text longer), only cut to fit. `image` is already in this instance's media.
 */
export interface RemotePostInput {
  uri: string;
  url: string | null;
  message: string;
  tags: string[];
  image: string;
  mediaId: string | null;
  alt: string;
  sensitive: boolean;
  spoiler: string;
  /** Where feeds crop its photo (posts' crop form, from Mastodon's `focalPoint`); '' the centre. */
  crop?: string;
  /**
   * Every photo in order (issue 71), the first being `image`, `mediaId`, `alt` and `crop` above;
   * absent: that one alone.
   */
  images?: PhotoRow[];
  /** Local people its `Mention` tags name: notified. */
  mentionedIds: string[];
  published: string;
  /** Who may see it, as its addressing says (`federation/noteAudience.ts`); public when not given. */
  audience?: Audience;
}

/**
 * What a remote post's `Update` may change. `photos`: the Note's images in order, each by the
 * address it has in the Note (`source`), with its alt text and crop: the post's photos become
 * these (issue 71). None: the photos stay as they are (a post here has one at least).
 */
export type RemotePostChanges = Pick<RemotePostInput, 'message' | 'tags' | 'alt' | 'sensitive' | 'spoiler' | 'crop'> & {
  photos?: { source: string; alt: string; crop?: string }[];
};

/** An image of a Note fetched into this instance's media: its URL here (a placeholder when it failed) and upload. */
export type FetchRemoteImage = (source: string) => Promise<{ image: string; mediaId: string | null }>;

/**
 * A like or dislike pressed on a post, as one transaction's steps (`db/steps.ts`): the post visible
 * to the reader (a 404 otherwise), the toggle, then the like's notification written or taken back.
 */
function* reactSteps(userId: string, id: string, kind: Reaction) {
  const { creator_id: creatorId } = yield* requireVisiblePostSteps(userId, id);
  const toggled = yield* toggleSteps(POST_REACTIONS, id, userId, kind);
  const change = toggled && likeChange(kind, toggled.counts.myReaction);
  if (!change) return { toggled, notified: null };
  if (change === 'removed') {
    const unread = { userId: creatorId, type: 'like', actorId: userId, subjectId: id } as const;
    return { toggled, notified: yield* withdrawSteps(unread) };
  }
  const notified = yield* notifySteps({ type: 'like', userId: creatorId, actorId: userId, postId: id });
  return { toggled, notified };
}

/**
 * A new post, as one transaction's steps: its row and tags, the writer's post count, the people it
 * mentions (`given`, or those its text names) linked and notified within the writer's mention budget.
 */
function* createSteps(
  user: AuthUser,
  post: PostGiven,
  tags: string[],
  photos: PhotoRow[],
  mentionsPerMinute: number,
  mentions: { given: MentionedUser[] } | { named: NamedInText },
) {
  const mentioned = 'given' in mentions ? mentions.given : yield* mentionedUsersSteps(mentions.named, user.id);
  yield* insertPostSteps(post, tags, photos);
  yield* addToCounterSteps(user.id, 'posts_count', 1);
  const ids = mentioned.map((u) => u.id);
  yield* addPostMentionsSteps(post.id, ids);
  // Only those the post's audience admits hear of it (a followers-only post: the followers named).
  const told =
    post.audience === undefined || post.audience === 'public' ? ids : yield* audienceAmongSteps(post.id, ids);
  return yield* notifyEachSteps(mentionsOf(told, user, post.id), mentionsPerMinute);
}

export function postWrites({
  data,
  media,
  load,
  publish,
  mentionsPerMinute,
  mentionRules,
  mayPost,
  defaultAudience,
  maxImages,
  onFilesLeft,
}: PostWritesDeps) {
  const { posts } = data;

  /** A new post's photos: `images`, or `image` with its alt text and crop (a one-photo album). */
  async function newPhotos(user: AuthUser, input: PostInput): Promise<PhotoRow[]> {
    if (photosGiven(input) === 'images') {
      const given = await ownPostImages(media, user, input.images, maxImages);
      return given.map((p) => ({ image: p.image, media_id: p.mediaId, alt: p.alt ?? '', crop: p.crop ?? '' }));
    }
    const { alt = '', crop = '' } = readImageText(input);
    const { image, mediaId } = await ownPostImage(media, user, input.image);
    return [{ image, media_id: mediaId, alt, crop }];
  }

  /**
   * An edit's photos, or undefined when it names none. `images` is the whole new list: a photo
   * already in the post keeps its alt text and crop unless given. `image`, `alt`, `crop` change
   * the first photo only.
   */
  async function editedPhotos(user: AuthUser, id: string, input: PostInput): Promise<PhotoRow[] | undefined> {
    const way = photosGiven(input);
    if (way === null) return undefined;
    const current = await posts.photosOf(id);
    if (current.length === 0) throw postNotFound();
    if (way === 'images') {
      const given = await ownPostImages(media, user, input.images, maxImages);
      return given.map((p) => {
        const before = current.find((c) => c.media_id === p.mediaId);
        return {
          image: p.image,
          media_id: p.mediaId,
          alt: p.alt ?? before?.alt ?? '',
          crop: p.crop ?? before?.crop ?? '',
        };
      });
    }
    const [first, ...rest] = current;
    const text = readImageText(input);
    const replaced = input.image === undefined ? null : await ownPostImage(media, user, input.image);
    if (replaced && rest.some((p) => p.media_id === replaced.mediaId))
      throw new InvalidError('Photo 1: it is in the post already', 'DuplicateImage');
    const next = {
      image: replaced?.image ?? first.image,
      media_id: replaced?.mediaId ?? first.media_id,
      alt: text.alt ?? first.alt,
      crop: text.crop ?? first.crop,
    };
    return [next, ...rest];
  }

  return {
    /** Keeps a post from elsewhere once (its `uri`): the id kept, and whether it is new. */
    async importRemote(author: AuthUser, input: RemotePostInput): Promise<{ id: string; created: boolean }> {
      const existing = await posts.postIdWithUri(input.uri);
      if (existing) return { id: existing, created: false };
      const id = newId();
      const tags = input.tags;
      let notified;
      try {
        const post = {
          id,
          creator_id: author.id,
          message: input.message,
          image: input.image,
          media_id: input.mediaId,
          tags: JSON.stringify(tags),
          alt: input.alt,
          sensitive: input.sensitive ? 1 : 0,
          spoiler: input.spoiler,
          crop: input.crop ?? '',
          uri: input.uri,
          url: input.url,
          audience: input.audience ?? 'public',
          created_at: input.published,
          updated_at: input.published,
          image_count: input.images?.length || 1,
        };
        const photos = input.images ?? [];
        const mentioned = input.mentionedIds.map((userId) => ({ id: userId, username: '' }));
        notified = await data.steps(() =>
          createSteps(author, post, tags, photos, mentionsPerMinute, { given: mentioned }),
        );
      } catch (error) {
        // The same Note arriving twice at once: the first insert stands.
        const again = await posts.postIdWithUri(input.uri);
        if (again) return { id: again, created: false };
        throw error;
      }
      publish({
        type: 'PostCreated',
        postId: id,
        creatorId: author.id,
        creatorName: usernameKey(author.username),
        tags: [...new Set(tags.map(tagKey))],
        fromElsewhere: true,
        notifications: notified,
      });
      return { id, created: true };
    },

    /**
     * A remote post's `Update`: its text, tags, content warning and photos. A photo whose image
     * the post had (by its address) keeps its file and takes its new alt text and crop; a new
     * image is fetched (`fetchImage`); a photo no longer there goes, and its files with it.
     */
    async updateRemote(id: string, changes: RemotePostChanges, fetchImage: FetchRemoteImage): Promise<void> {
      const before = await posts.photosOf(id);
      const given = changes.photos ?? [];
      const next: PhotoRow[] = [];
      for (const [i, photo] of given.entries()) {
        // A photo kept before its address was (none): the first is the Note's first image.
        const kept: PhotoRow | undefined =
          before.find((p) => p.source === photo.source) ?? (i === 0 && !before[0]?.source ? before[0] : undefined);
        const file = kept ? { image: kept.image, mediaId: kept.media_id } : await fetchImage(photo.source);
        next.push({
          image: file.image,
          media_id: file.mediaId,
          alt: photo.alt,
          crop: photo.crop ?? kept?.crop ?? '',
          source: photo.source,
        });
      }
      try {
        await data.transaction(async (trx) => {
          // Gone meanwhile (a Delete): nothing to change.
          if ((await trx.posts.photosOf(id)).length === 0) return;
          if (next.length > 0) await trx.posts.replacePhotos(id, next);
          // The posts row's image is the first photo: its alt text and crop are that photo's.
          const first = next[0] ?? before[0];
          const crop = first?.crop ?? changes.crop;
          await trx.posts.updatePost(id, {
            message: changes.message,
            tags: JSON.stringify(changes.tags),
            alt: first?.alt ?? changes.alt,
            sensitive: changes.sensitive ? 1 : 0,
            spoiler: changes.spoiler,
            ...(crop !== undefined && { crop }),
            ...(next.length > 0 && { image: next[0].image, media_id: next[0].media_id, image_count: next.length }),
            updated_at: nowIso(),
          });
          await trx.posts.replaceTags(id, changes.tags);
        });
      } finally {
        // The photos taken out, and any image fetched in vain (a failed write): rows and files.
        const ids = [...before, ...next].map((photo) => photo.media_id);
        await media.removeUnused(ids).catch((error: unknown) => onFilesLeft?.(error));
      }
      publish({ type: 'PostEdited', postId: id, tagsChanged: true, notifications: [] });
    },

    /**
     * A post brought from an Instagram archive or a Posts export (issue 76): `id` is the one its
     * import row chose (time-ordered at `createdAt`), so a job run again after a restart finds it
     * made and makes it no second time. The text, tags, audience (none: the user's default) and
     * content warning are the import's, checked there (`instagramImport/`), the photos uploads
     * already made for `user`. Nobody is notified and it is not sent elsewhere (`imported` on the
     * event): it is old news at its old date.
     */
    async importArchived(
      user: AuthUser,
      input: {
        id: string;
        message: string;
        tags: string[];
        photos: PhotoRow[];
        createdAt: string;
        from: 'instagram' | 'posts';
        audience?: Audience;
        sensitive?: boolean;
        spoiler?: string;
      },
    ): Promise<{ created: boolean }> {
      if (await posts.findPostOwner(input.id)) return { created: false };
      const [first] = input.photos;
      const post = {
        id: input.id,
        creator_id: user.id,
        message: input.message,
        image: first.image,
        media_id: first.media_id,
        tags: JSON.stringify(input.tags),
        audience: input.audience ?? (((await defaultAudience?.(user)) ?? 'public') as Audience),
        alt: first.alt,
        crop: first.crop,
        sensitive: input.sensitive ? 1 : 0,
        spoiler: input.spoiler ?? '',
        image_count: input.photos.length,
        imported_from: input.from,
        created_at: input.createdAt,
        updated_at: input.createdAt,
      };
      try {
        await data.steps(() => createSteps(user, post, input.tags, input.photos, mentionsPerMinute, { given: [] }));
      } catch (error) {
        // Made meanwhile by another run of the same job: the first insert stands.
        if (await posts.findPostOwner(input.id)) return { created: false };
        throw error;
      }
      publish({
        type: 'PostCreated',
        postId: input.id,
        creatorId: user.id,
        creatorName: usernameKey(user.username),
        tags: [...new Set(input.tags.map(tagKey))],
        imported: true,
        notifications: [],
      });
      return { created: true };
    },

    async create(user: AuthUser, input: PostInput): Promise<Post> {
      await mayPost?.(user);
      const message = readMessage(input.message);
      const tags = readPostTags(input.tags, message);
      const { sensitive, spoiler } = readImageText({ sensitive: input.sensitive, spoiler: input.spoiler });
      const audience = readAudience(input.audience) ?? (await defaultAudience?.(user)) ?? 'public';
      const photos = await newPhotos(user, input);
      const [first] = photos;
      const id = newId();
      const now = nowIso();
      const post = {
        id,
        creator_id: user.id,
        message,
        image: first.image,
        media_id: first.media_id,
        tags: JSON.stringify(tags),
        audience,
        alt: first.alt,
        crop: first.crop,
        sensitive,
        spoiler,
        image_count: photos.length,
        created_at: now,
        updated_at: now,
      };
      const named = await namedInText(data.mentions, message, mentionRules);
      const notified = await data.steps(() => createSteps(user, post, tags, photos, mentionsPerMinute, { named }));
      publish({
        type: 'PostCreated',
        postId: id,
        creatorId: user.id,
        creatorName: usernameKey(user.username),
        tags: [...new Set(tags.map(tagKey))],
        notifications: notified,
      });
      return load(user, id);
    },

    async edit(user: AuthUser, id: string, input: PostInput): Promise<Post> {
      const post = await requirePost(posts, id);
      if (post.creator_id !== user.id) throw new ForbiddenError('Only the creator can edit this post');
      const changes: {
        message?: string;
        image?: string;
        media_id?: string | null;
        tags?: string;
        alt?: string;
        sensitive?: number;
        spoiler?: string;
        crop?: string;
        audience?: Audience;
        image_count?: number;
        updated_at: string;
      } = { ...readImageText({ sensitive: input.sensitive, spoiler: input.spoiler }), updated_at: nowIso() };
      const audience = readAudience(input.audience);
      if (audience !== undefined) changes.audience = audience;
      let tags: string[] | undefined;
      if (input.message !== undefined) changes.message = readMessage(input.message);
      if (input.tags !== undefined || changes.message !== undefined) {
        // The message's hashtags are tags too: a new message adds its own to the tags kept, new
        // tags keep the hashtags of the message kept.
        const kept =
          input.tags === undefined || changes.message === undefined ? await posts.findPost(user.id, id) : null;
        const keptTags = JSON.parse(kept?.tags ?? '[]') as string[];
        const message = changes.message ?? kept?.message ?? '';
        const next = input.tags !== undefined ? readPostTags(input.tags, message) : withHashtags(keptTags, message);
        if (input.tags !== undefined || next.length !== keptTags.length) {
          tags = next;
          changes.tags = JSON.stringify(tags);
        }
      }
      const photos = await editedPhotos(user, id, input);
      if (photos) {
        const [first] = photos;
        Object.assign(changes, {
          image: first.image,
          media_id: first.media_id,
          alt: first.alt,
          crop: first.crop,
          image_count: photos.length,
        });
      }
      const named =
        changes.message !== undefined ? await namedInText(data.mentions, changes.message, mentionRules) : null;
      const notified = await data.transaction(async (trx) => {
        await trx.posts.updatePost(id, changes);
        if (photos) await trx.posts.replacePhotos(id, photos);
        if (tags) await trx.posts.replaceTags(id, tags);
        if (!named) return [];
        const mentioned = await trx.mentions.run(mentionedUsersSteps(named, user.id));
        // Only the newly mentioned hear of it; those no longer mentioned lose the link.
        const before = new Set(await trx.mentions.postMentionIds(id));
        const now = new Set(mentioned.map((u) => u.id));
        await trx.mentions.removePostMentions(
          id,
          [...before].filter((userId) => !now.has(userId)),
        );
        const added = mentioned.filter((u) => !before.has(u.id)).map((u) => u.id);
        await trx.mentions.addPostMentions(id, added);
        const told = await trx.posts.audienceAmong(id, added);
        return notifyEach(trx.notifications, mentionsOf(told, user, id), mentionsPerMinute);
      });
      publish({ type: 'PostEdited', postId: id, tagsChanged: tags !== undefined, notifications: notified });
      return load(user, id);
    },

    async remove(user: AuthUser, id: string): Promise<{ _id: string }> {
      const post = await requirePost(posts, id);
      if (post.creator_id !== user.id && user.role !== 'admin')
        throw new ForbiddenError('Only the creator can delete this post');
      const { recipients, photos } = await data.transaction(async (trx) => {
        // Its notifications go with it: whose unread count falls is read first.
        const recipients = await trx.notifications.unreadRecipientsAbout({ postId: id });
        const photos = await trx.posts.photosOf(id);
        // Tags, reactions, comments, their reactions and the notifications go with it (ON DELETE
        // CASCADE). The same delete arriving twice at once: only the one that removed the row counts it.
        if (!(await trx.posts.deletePost(id))) throw postNotFound();
        await trx.users.addToCounter(post.creator_id, 'posts_count', -1);
        return { recipients, photos };
      });
      publish({
        type: 'PostDeleted',
        postId: id,
        creatorId: post.creator_id,
        notifications: unreadFellFor(recipients),
      });
      // Every file of every photo, once the delete has committed (a failed one loses nothing);
      // an upload another post or a profile uses stays.
      await media.removeUnused(photos.map((photo) => photo.media_id)).catch((error: unknown) => onFilesLeft?.(error));
      return { _id: id };
    },

    async react(user: AuthUser, id: string, kind: Reaction): Promise<ReactionCounts> {
      const { toggled, notified } = await data.steps(() => reactSteps(user.id, id, kind));
      if (!toggled) throw postNotFound();
      const { counts, counted } = toggled;
      // The new like's notification, or the unread one taken back: the streams hear of either.
      publish({
        type: 'PostReacted',
        postId: id,
        userId: user.id,
        reaction: counts.myReaction,
        counted,
        notifications: notified ? [notified] : [],
      });
      return counts;
    },
  };
}

export type PostWrites = ReturnType<typeof postWrites>;
