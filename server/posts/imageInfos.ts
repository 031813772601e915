/**
 * `imageInfo` of post images, by media id. A media row no longer changes once its upload has
 * stored every variant, so its ImageInfo is worked out once and kept: post lists then need no
 * join on `media` and no parsing of its variants for every post of every page.
 */
import type { ImageInfo } from '../../lib/types';
import { setBounded } from '../cache/bounded';
import { type CountedCache, cacheCounts } from '../cache/counts';
import type { MediaRepository } from '../media/repository';
import { imageInfoOf } from '../media/service';
import type { MediaStorage } from '../media/storage';

export type ImageInfos = ((mediaIds: (string | null)[]) => Promise<Map<string, ImageInfo>>) & CountedCache;

export function imageInfoCache(
  media: Pick<MediaRepository, 'imageRows'>,
  storage: MediaStorage,
  max = 10_000,
): ImageInfos {
  // Insertion order is the eviction order: a post image still in use is simply looked up again.
  const known = new Map<string, ImageInfo>();
  const counts = cacheCounts();
  async function imageInfos(mediaIds: (string | null)[]): Promise<Map<string, ImageInfo>> {
    const found = new Map<string, ImageInfo>();
    const missing: string[] = [];
    for (const id of mediaIds) {
      if (id === null || found.has(id)) continue;
      const info = known.get(id);
      if (info) {
        found.set(id, info);
        counts.hits++;
      } else if (!missing.includes(id)) missing.push(id);
    }
    counts.misses += missing.length;
    if (missing.length === 0) return found;
    const rows = await media.imageRows(missing);
    for (const row of rows) {
      const info = imageInfoOf(row, storage);
      found.set(row.id, info);
      // No WebP listed yet: an upload whose other variants another instance is still writing.
      if (!info.srcset) continue;
      setBounded(known, row.id, info, max, counts);
    }
    return found;
  }
  return Object.assign(imageInfos, { counts, size: () => known.size });
}
