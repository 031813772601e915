/**
 * Uploads: process the image, store every variant under server-made keys, record one `media`
 * row. Also the lookups posts and profiles need to trust and describe an uploaded image.
 */
import type { Kysely, Transaction } from 'kysely';
import type { ImageInfo, UploadResult } from '../../lib/types';
import type { UploadPreset } from '../../lib/limits';
import type { Database, MediaRow } from '../db/schema';
import { newId, nowIso } from '../http/ids';
import { processImage } from './pipeline';
import type { MediaStorage } from './storage';

type Q = Kysely<Database> | Transaction<Database>;

/** One stored file, as kept in `media.variants` (JSON). */
export interface StoredVariant {
  key: string;
  width: number;
  height: number;
  format: string;
  bytes: number;
}

export interface MediaService {
  upload(ownerId: string, preset: UploadPreset, bytes: Buffer): Promise<UploadResult>;
}

export function mediaService({ db, storage }: { db: Kysely<Database>; storage: MediaStorage }): MediaService {
  return {
    async upload(ownerId, preset, bytes) {
      // Refusals (type, size, corrupt) happen here, before anything is written.
      const image = await processImage(bytes, preset);
      const mediaId = newId();
      const stored = image.variants.map((v) => ({
        variant: v,
        row: { key: `${preset}/${mediaId}/${v.width}.${v.format}`, width: v.width, height: v.height, format: v.format, bytes: v.data.length },
      }));
      const main = stored.find((s) => s.variant === image.main)!.row;
      try {
        await Promise.all(stored.map((s) => storage.put(s.row.key, s.variant.data, s.variant.contentType)));
        await db.insertInto('media').values({
          id: mediaId, owner_id: ownerId, preset, storage_key: main.key,
          variants: JSON.stringify(stored.map((s) => s.row)),
          width: main.width, height: main.height, format: main.format, bytes: main.bytes,
          thumbhash: image.thumbhash, created_at: nowIso(),
        }).execute();
      } catch (error) {
        // No orphans: a file without its row could never be cleaned up or found again.
        await storage.remove(stored.map((s) => s.row.key)).catch(() => {});
        throw error;
      }
      return {
        secure_url: storage.url(main.key), public_id: mediaId,
        width: main.width, height: main.height, format: main.format, bytes: main.bytes, thumbhash: image.thumbhash,
      };
    },
  };
}

/**
 * The upload whose main URL is `url`, or undefined when `url` is not one of this server's
 * uploads (an outside link, a variant URL, a made-up key).
 */
export async function findMediaByUrl(db: Q, storage: MediaStorage, url: string): Promise<MediaRow | undefined> {
  // Drivers build URLs as prefix + key, so the key is what follows the prefix.
  const prefix = storage.url('');
  if (!url.startsWith(prefix) || url.length === prefix.length) return undefined;
  const row = await db.selectFrom('media').selectAll().where('storage_key', '=', url.slice(prefix.length)).executeTakeFirst();
  return row && storage.url(row.storage_key) === url ? row : undefined;
}

/** `imageInfo` of a post: size, placeholder and the WebP candidates for `srcset`, smallest first. */
export function imageInfoOf(row: Pick<MediaRow, 'width' | 'height' | 'thumbhash' | 'variants'>, storage: MediaStorage): ImageInfo {
  const variants = JSON.parse(row.variants) as StoredVariant[];
  const srcset = variants.filter((v) => v.format === 'webp').sort((a, b) => a.width - b.width)
    .map((v) => `${storage.url(v.key)} ${v.width}w`).join(', ');
  return { width: row.width, height: row.height, thumbhash: row.thumbhash, srcset };
}
