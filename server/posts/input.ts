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
