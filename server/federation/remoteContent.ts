/**
 * Notes from elsewhere kept here (issue 32): a post with an image becomes a post of its author's
 * kept person, its image fetched once into this instance's media (a placeholder when that fails);
 * a reply to a post kept here (local, or from elsewhere) becomes a comment. Both go through the
 * posts and comments services, so counters, notifications, feeds and the caches' events are the
 * same as for local writes. Text-only notes are not kept (as Pixelfed does).
 */
import type { Context } from '@fedify/fedify';
import { Document, Hashtag, Image, Mention, type Note } from '@fedify/vocab';
import { ALT_MAX, COMMENT_MAX, MENTIONS_PER_MESSAGE_MAX, SPOILER_MAX, TAGS_PER_POST_MAX } from '../../lib/limits';
import { splitText } from '../../lib/textEntities';
import { normalizeTags, tagError } from '../../lib/validation';
import { nowIso } from '../domain/ids';
import type { AuthUser } from '../domain/types';
import type { CommentsService } from '../comments/service';
import type { MediaService } from '../media/service';
import type { PostsService } from '../posts/service';
import type { FetchRemoteImage, RemotePostChanges } from '../posts/writes';
import { sentFocalCrop } from './focalPoint';
import { noteAudience } from './noteAudience';
import { MISSING_REMOTE_IMAGE, storeRemoteImage } from './remoteImages';
import type { RemotePersonRow, RemoteRepository } from './remoteRepository';
import { textOfHtml, webUrlOf } from './remoteText';

/** A kept post's text is cut here: enough for any caption, bounded for the lists. */
export const REMOTE_MESSAGE_MAX = 5000;

/** The services remote writes go through (built after the federation, handed over lazily). */
export interface LocalServices {
  posts: Pick<PostsService, 'importRemote' | 'updateRemote' | 'remove' | 'react' | 'fetchedRow'>;
  comments: Pick<CommentsService, 'add' | 'remove'>;
  media: Pick<MediaService, 'upload'>;
}

/** Someone from elsewhere, acting here through the same services as a signed-in person. */
export const asAuthUser = (person: Pick<RemotePersonRow, 'id' | 'username'>): AuthUser => ({
  id: person.id,
  username: person.username,
  role: 'member',
  sessionId: '',
});

/**
 * The image attachments' addresses and descriptions, in order, at most `max` (issue 71: an album);
 * a video or any other medium is not a photo and is left out, as is an address given twice.
 */
function imagesOf(attachments: unknown[], max: number): { url: string; alt: string }[] {
  const found: { url: string; alt: string }[] = [];
  for (const item of attachments) {
    if (found.length >= max) break;
    if (!(item instanceof Image || item instanceof Document)) continue;
    if (item.mediaType && !item.mediaType.startsWith('image/')) continue;
    const url = item.url instanceof URL ? item.url : item.url?.href;
    if (url && !found.some((image) => image.url === url.href))
      found.push({ url: url.href, alt: item.name?.toString().slice(0, ALT_MAX) ?? '' });
  }
  return found;
}

/** A line of hashtags only (by the shared rule, lib/textEntities), spaces between them. */
const isTagLine = (line: string) => {
  const parts = splitText(line);
  const blank = (part: (typeof parts)[number]) => 'text' in part && part.text.trim() === '';
  return parts.some((part) => 'hashtag' in part) && parts.every((part) => 'hashtag' in part || blank(part));
};

/**
 * The text without a last line of hashtags only: servers (this one, Mastodon) append the tags to
 * the content, and a post here shows its tags apart.
 */
export function withoutTagLine(text: string): string {
  const lines = text.split('\n');
  while (lines.length > 1 && isTagLine(lines[lines.length - 1])) lines.pop();
  return lines.join('\n').trim();
}

async function collect<T>(items: AsyncIterable<T>, max = 50): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= max) break;
  }
  return out;
}

export function remoteContent(
  repo: RemoteRepository,
  services: () => LocalServices,
  /** `FEDERATION_ALLOW_PRIVATE`: images may come from private addresses (tests, local trials). */
  allowPrivateAddress: boolean,
  /** Photos a kept post holds at most (`MAX_POST_IMAGES`): a Note's further images are left out. */
  maxImages: number,
) {
  /** Each image's crop, from its focal point in `sent` (`focalPoint.ts`). */
  const cropOf = (note: Note, sent: unknown, url: string) => (note.id ? sentFocalCrop(sent, note.id.href, url) : '');

  /**
   * What a Note says, as a post's fields (without its image). `image`: the Note's first image (`imagesOf`),
   * whose focal point is the crop, read from `sent`, the activity as it came (`focalPoint.ts`).
   */
  async function fieldsOf(
    ctx: Context<void>,
    note: Note,
    image: { url: string } | null,
    sent?: unknown,
  ): Promise<RemotePostChanges & { mentionedIds: string[] }> {
    const tags: string[] = [];
    const mentionedIds: string[] = [];
    for (const tag of await collect(note.getTags(ctx))) {
      if (tag instanceof Hashtag && tag.name) tags.push(tag.name.toString().replace(/^#/, ''));
      // At most as many people as a local text notifies, whatever the note names.
      if (tag instanceof Mention && tag.href && mentionedIds.length < MENTIONS_PER_MESSAGE_MAX) {
        const local = ctx.parseUri(tag.href);
        if (local?.type === 'actor' && !mentionedIds.includes(local.identifier)) mentionedIds.push(local.identifier);
      }
    }
    const valid = normalizeTags(tags).filter((tag) => tagError(tag) === null);
    const sensitive = note.sensitive === true;
    return {
      message: withoutTagLine(textOfHtml(note.content?.toString() ?? '')).slice(0, REMOTE_MESSAGE_MAX),
      tags: valid.slice(0, TAGS_PER_POST_MAX),
      alt: '',
      sensitive,
      spoiler: sensitive ? (note.summary?.toString() ?? '').slice(0, SPOILER_MAX) : '',
      crop: image && note.id ? sentFocalCrop(sent, note.id.href, image.url) : '',
      mentionedIds,
    };
  }

  /** An image of `author`'s Note, fetched into this instance's media as theirs; a placeholder when that fails. */
  const fetchImage = async (author: RemotePersonRow, source: string): ReturnType<FetchRemoteImage> => {
    const stored = await storeRemoteImage(services().media, author.id, 'post', source, allowPrivateAddress);
    return { image: stored?.url ?? MISSING_REMOTE_IMAGE, mediaId: stored?.mediaId ?? null };
  };

  /** The post a reply answers, when it is kept here: a local post's address or a kept Note's. */
  async function repliedPost(ctx: Context<void>, target: URL): Promise<string | null> {
    const local = ctx.parseUri(target);
    if (local?.type === 'object' && typeof local.values.id === 'string') return local.values.id;
    return (await repo.postWithUri(target.href))?.id ?? null;
  }

  return {
    /**
     * Keeps a Note by `author`: a reply to a post here as a comment, a post with an image as a
     * post (only when someone here follows the author or is mentioned, unless `backfill`).
     */
    async importNote(
      ctx: Context<void>,
      author: RemotePersonRow,
      note: Note,
      /** `sent`: the activity as it came (its JSON), for what Fedify drops (the focal point). */
      options: { backfill?: boolean; sent?: unknown } = {},
    ): Promise<'post' | 'comment' | 'skipped'> {
      if (!note.id || !webUrlOf(note.id.href) || note.attributionId?.href !== author.actor_uri) return 'skipped';
      const user = asAuthUser(author);
      if (note.replyTargetId) {
        const postId = await repliedPost(ctx, note.replyTargetId);
        if (!postId || (await repo.commentWithUri(note.id.href))) return 'skipped';
        const text = textOfHtml(note.content?.toString() ?? '').slice(0, COMMENT_MAX);
        // Hidden from them (a block), gone, or empty: the service refuses, and nothing is kept.
        const { mentionedIds } = await fieldsOf(ctx, note, null);
        await services().comments.add(user, postId, text, { uri: note.id.href, mentionedIds });
        return 'comment';
      }
      const images = imagesOf(await collect(note.getAttachments(ctx)), maxImages);
      if (images.length === 0 || (await repo.postWithUri(note.id.href))) return 'skipped';
      const fields = await fieldsOf(ctx, note, images[0], options.sent);
      // Kept for those who follow the author, and for those it mentions (who are notified).
      const wanted = options.backfill || fields.mentionedIds.length > 0 || (await repo.hasLocalFollower(author.id));
      if (!wanted) return 'skipped';
      // One at a time: each fetch takes one of the remote images' turns (`remoteImages.ts`).
      const photos = [];
      for (const image of images) {
        const stored = await fetchImage(author, image.url);
        photos.push({
          image: stored.image,
          media_id: stored.mediaId,
          alt: image.alt,
          crop: cropOf(note, options.sent, image.url),
          source: image.url,
        });
      }
      const [first] = photos;
      const url = note.url instanceof URL ? note.url : note.url?.href;
      const named = (await collect(note.getTags(ctx)))
        .filter((tag): tag is Mention => tag instanceof Mention && tag.href !== null)
        .map((tag) => tag.href!.href);
      const { created } = await services().posts.importRemote(user, {
        uri: note.id.href,
        url: webUrlOf(url?.href) ?? note.id.href,
        audience: noteAudience(note, named),
        ...fields,
        alt: first.alt,
        image: first.image,
        mediaId: first.media_id,
        crop: first.crop,
        images: photos,
        published: note.published ? new Date(note.published.epochMilliseconds).toISOString() : nowIso(),
      });
      return created ? 'post' : 'skipped';
    },

    /**
     * An `Update` of a kept post by its author: its text, tags, content warning and photos (issue
     * 71): the images it has now, in its order, each with its description and focal point.
     */
    async updateNote(ctx: Context<void>, author: RemotePersonRow, note: Note, sent?: unknown): Promise<boolean> {
      if (!note.id) return false;
      const post = await repo.postWithUri(note.id.href);
      if (!post || post.creator_id !== author.id) return false;
      const images = imagesOf(await collect(note.getAttachments(ctx)), maxImages);
      const { mentionedIds: _ignored, ...changes } = await fieldsOf(ctx, note, images[0] ?? null, sent);
      const photos = images.map((image) => ({
        source: image.url,
        alt: image.alt,
        crop: cropOf(note, sent, image.url),
      }));
      await services().posts.updateRemote(post.id, { ...changes, photos }, (source) => fetchImage(author, source));
      return true;
    },

    /** A `Delete` by its author of a kept post or comment. */
    async deleteObject(author: RemotePersonRow, objectId: URL): Promise<boolean> {
      const user = asAuthUser(author);
      const post = await repo.postWithUri(objectId.href);
      if (post) {
        if (post.creator_id !== author.id) return false;
        await services().posts.remove(user, post.id);
        return true;
      }
      const comment = await repo.commentWithUri(objectId.href);
      if (!comment || comment.user_id !== author.id) return false;
      await services().comments.remove(user, comment.post_id, comment.id);
      return true;
    },

    repliedPost,
  };
}

export type RemoteContent = ReturnType<typeof remoteContent>;
