/** A post's fields as a client sends them, checked (spec section 5): text, tags, image, alt text, content warning. */
import { AUDIENCE_ERROR, type Audience, isAudience } from '../../lib/audience';
import { TEXTS } from '../../lib/texts';
import { TAGS_PER_POST_MAX } from '../../lib/limits';
import { hashtagTags } from '../../lib/textEntities';
import { altError, normalizeTags, postMessageError, spoilerError, tagError, tagsError } from '../../lib/validation';
import { cropColumn, cropError } from '../../lib/photoCrop';
import { InvalidError } from '../domain/errors';
import type { AuthUser } from '../domain/types';
import type { MediaService } from '../media/service';

export interface PostInput {
  message?: unknown;
  image?: unknown;
  tags?: unknown;
  alt?: unknown;
  sensitive?: unknown;
  spoiler?: unknown;
  crop?: unknown;
  audience?: unknown;
  /** Issue 71: the whole ordered list of photos, `[{ image, alt?, crop? }]`, instead of `image`, `alt` and `crop`. */
  images?: unknown;
}

/** The audience asked for (issue 70), checked; undefined when none was given. */
export function readAudience(raw: unknown): Audience | undefined {
  if (raw === undefined) return undefined;
  if (!isAudience(raw)) throw new InvalidError(AUDIENCE_ERROR, 'InvalidAudience');
  return raw;
}

/** Alt text and the content warning, checked; only the fields the input has. */
export function readImageText(input: PostInput): { alt?: string; sensitive?: number; spoiler?: string; crop?: string } {
  const out: { alt?: string; sensitive?: number; spoiler?: string; crop?: string } = {};
  if (input.crop !== undefined) {
    const error = cropError(input.crop);
    if (error) throw new InvalidError(error, 'InvalidCrop');
    const { x, y, fit } = input.crop as { x: number; y: number; fit?: boolean };
    out.crop = cropColumn({ x, y, fit: fit === true });
  }
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

/**
 * A post's tags (issue 68): those given, each held to the tag rule, then the message's `#hashtags`
 * that can be tags (lib/textEntities), as long as there is room (`TAGS_PER_POST_MAX`; the rest stay
 * text). At least one in all: a hashtag in the message counts.
 */
export function readPostTags(raw: unknown, message: string): string[] {
  if (!Array.isArray(raw) || raw.some((t) => typeof t !== 'string'))
    throw new InvalidError(TEXTS.tagRequired, 'InvalidTags');
  const given = normalizeTags(raw as string[]);
  if (given.length > TAGS_PER_POST_MAX) throw new InvalidError(tagsError(given)!, 'InvalidTags');
  for (const tag of given) {
    const error = tagError(tag);
    if (error) throw new InvalidError(error, 'InvalidTags');
  }
  const tags = withHashtags(given, message);
  if (tags.length === 0) throw new InvalidError(TEXTS.tagRequired, 'InvalidTags');
  return tags;
}

/** `tags`, then the hashtags of `message` not among them, up to `TAGS_PER_POST_MAX`. */
export const withHashtags = (tags: readonly string[], message: string): string[] =>
  normalizeTags([...tags, ...hashtagTags(message)]).slice(0, TAGS_PER_POST_MAX);

export function readMessage(raw: unknown): string {
  const error = postMessageError(typeof raw === 'string' ? raw : null);
  if (error) throw new InvalidError(error, 'InvalidMessage');
  return (raw as string).trim();
}

/** Checks that the image is one of this user's post uploads; returns its media id. */
export async function ownPostImage(
  media: Pick<MediaService, 'findByUrl'>,
  user: AuthUser,
  image: unknown,
): Promise<{ image: string; mediaId: string }> {
  if (typeof image !== 'string' || image.length === 0) throw new InvalidError('Please add an image', 'ImageRequired');
  const found = await media.findByUrl(image);
  if (!found || found.owner_id !== user.id || found.preset !== 'post') {
    throw new InvalidError('The image must be a post image uploaded here', 'InvalidImage');
  }
  return { image, mediaId: found.id };
}

/** A photo as a client gave it (issue 71), checked: its upload, and its alt text and crop when given. */
export interface GivenPhoto {
  image: string;
  mediaId: string;
  alt?: string;
  crop?: string;
}

/** `images` and the one-image fields are two ways to say the photos: a body says one of them. */
export function photosGiven(input: PostInput): 'images' | 'image' | null {
  const single = input.image !== undefined || input.alt !== undefined || input.crop !== undefined;
  if (input.images === undefined) return single ? 'image' : null;
  if (single) throw new InvalidError('Send either images or image, alt and crop, not both', 'ImageConflict');
  return 'images';
}

/**
 * `images` checked (issue 71): a list of 1 to `limit` photos, each one of this user's post
 * uploads (as `ownPostImage`), none twice, each with its alt text and crop held to the one-image
 * rules. A photo's fault names its place in the list.
 */
export async function ownPostImages(
  media: Pick<MediaService, 'findByUrl'>,
  user: AuthUser,
  raw: unknown,
  limit: number,
): Promise<GivenPhoto[]> {
  if (!Array.isArray(raw)) throw new InvalidError('images must be a list of { image, alt, crop }', 'InvalidImages');
  if (raw.length === 0) throw new InvalidError('Please add an image', 'ImageRequired');
  if (raw.length > limit) throw new InvalidError(`A post holds at most ${limit} photos`, 'TooManyImages');
  const photos: GivenPhoto[] = [];
  const seen = new Set<string>();
  for (const [index, item] of raw.entries()) {
    const place = `Photo ${index + 1}: `;
    try {
      if (typeof item !== 'object' || item === null || Array.isArray(item))
        throw new InvalidError('it must be { image, alt, crop }', 'InvalidImages');
      const { image: given, alt, crop } = item as { image?: unknown; alt?: unknown; crop?: unknown };
      const text = readImageText({ alt, crop });
      const { image, mediaId } = await ownPostImage(media, user, given);
      if (seen.has(mediaId)) throw new InvalidError('it is in the post already', 'DuplicateImage');
      seen.add(mediaId);
      photos.push({ image, mediaId, ...text });
    } catch (error) {
      if (error instanceof InvalidError) throw new InvalidError(place + error.message, error.code);
      throw error;
    }
  }
  return photos;
}
