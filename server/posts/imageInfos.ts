/**
 * `imageInfo` of post images, by media id. A media row no longer changes once its upload has
 * stored every variant, so its ImageInfo is worked out once and kept: post lists then need no
 * join on `media` and no parsing of its variants for every post of every page.
 */
import type { ImageInfo } from '../../lib/types';
import type { CountedCache } from '../cache/counts';
import type { CacheRegistry } from '../cache/registry';
import type { MediaRepository } from '../media/repository';
import { imageInfoOf } from '../media/service';
import type { MediaStorage } from '../media/storage';

export type ImageInfos = ((mediaIds: (string | null)[]) => Promise<Map<string, ImageInfo>>) & CountedCache;

/** Nothing changes a stored image's info: a day only bounds what an image no longer shown holds. */
const IMAGE_INFO_TTL_MS = 24 * 60 * 60 * 1000;

export function imageInfoCache(
  caches: CacheRegistry,
  media: Pick<MediaRepository, 'imageRows'>,
  storage: MediaStorage,
  max = 10_000,
): ImageInfos {
  const known = caches.keyed<string, ImageInfo>({
    name: 'image_infos',
    ttlMs: IMAGE_INFO_TTL_MS,
    max,
    load: async (ids) => new Map((await media.imageRows(ids)).map((row) => [row.id, imageInfoOf(row, storage)])),
    // No WebP listed yet: an upload whose other variants another instance is still writing.
    keeps: (info) => !!info.srcset,
  });
  const imageInfos = (mediaIds: (string | null)[]) => known.getMany(mediaIds.filter((id) => id !== null));
  return Object.assign(imageInfos, { counts: known.counts, size: known.size });
}
