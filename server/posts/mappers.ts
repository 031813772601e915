import { cropOfColumn } from '../../lib/photoCrop';
import type { ImageInfo, Post, PostImage } from '../../lib/types';
import { mentionList } from '../mentions/names';
import type { PhotoRow, PostListRow } from './repository';

/**
 * A row's photos in order (issue 71): the posts row's own image first, then the album's others
 * (`album` is read only for a post of more than one photo).
 */
export function photosOfRow(row: PostListRow): PhotoRow[] {
  const first = { image: row.image, media_id: row.media_id, alt: row.alt, crop: row.crop };
  if (!row.album) return [first];
  const album = JSON.parse(row.album) as [string, string | null, string, string][];
  return [first, ...album.slice(1).map(([image, mediaId, alt, crop]) => ({ image, media_id: mediaId, alt, crop }))];
}

/** `infos`: the photos' image details by media id (`imageInfos.ts`). */
export function toPost(row: PostListRow, infos: ReadonlyMap<string, ImageInfo>): Post {
  const images: PostImage[] = photosOfRow(row).map((photo) => ({
    image: photo.image,
    imageInfo: (photo.media_id !== null && infos.get(photo.media_id)) || null,
    alt: photo.alt,
    crop: cropOfColumn(photo.crop),
  }));
  return {
    _id: row.id,
    message: row.message,
    image: row.image,
    imageInfo: images[0].imageInfo,
    tags: JSON.parse(row.tags) as string[],
    creator: row.creator,
    ...(row.creator_name !== null && { creatorName: row.creator_name }),
    creatorImage: row.creator_image,
    likesCount: Number(row.likes_count),
    dislikesCount: Number(row.dislikes_count),
    commentsCount: Number(row.comments_count),
    myReaction: row.my_reaction ?? null,
    alt: row.alt,
    sensitive: Number(row.sensitive) === 1,
    spoiler: row.spoiler,
    crop: images[0].crop,
    images,
    mentions: mentionList(row.mentions, row.message),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.original_url !== null && { originalUrl: row.original_url }),
    ...(row.original_uri !== null && { originalUri: row.original_uri }),
    audience: row.audience,
    ...(row.imported_from !== null && { importedFrom: row.imported_from }),
  };
}
