/**
 * Uploads: process the image, store its variants under server-made keys, record one `media`
 * row (with deferVariants, the main variant first and the others right after answering). Also
 * the lookups posts and profiles need to trust and describe an uploaded image.
 */
import { randomUUID } from 'node:crypto';
import type { UploadPreset } from '../../lib/limits';
import type { ImageInfo, UploadResult } from '../../lib/types';
import type { MediaRow, Queryable } from '../db/schema';
import { altError } from '../../lib/validation';
import { type PhotoCrop, cropColumn } from '../../lib/photoCrop';
import { InvalidError } from '../domain/errors';
import { isUuid, nowIso } from '../domain/ids';
import { type ImageSource, type StagedImage, stageImage, type Variant } from './pipeline';
import { type MediaRepository, mediaRepository } from './repository';
import type { MediaStorage } from './storage';

/** One stored file, as kept in `media.variants` (JSON). */
export interface StoredVariant {
  key: string;
  width: number;
  height: number;
  format: string;
  bytes: number;
}

export interface MediaService {
  /**
   * `source` 'remote': an image fetched from another server for `ownerId` (a person kept from
   * there), which may also be WebP, GIF or AVIF; the queue and every other bound are the uploads'.
   */
  upload(ownerId: string, preset: UploadPreset, bytes: Buffer, source?: ImageSource): Promise<UploadResult>;
  /** The upload whose main URL is `url` (see `findMediaByUrl`). */
  findByUrl(url: string): Promise<MediaRow | undefined>;
  /** One of the owner's uploads with its main URL and image facts, or undefined. */
  /** `processing`: its other variants are still being written here (`pendingVariants`). */
  findOwn(
    ownerId: string,
    id: string,
  ): Promise<{ row: MediaRow; url: string; info: ImageInfo; processing: boolean } | undefined>;
  /** Keeps alt text with one of the owner's uploads (max as a post's alt text), until a post takes it. */
  describe(ownerId: string, id: string, description: string | null): Promise<void>;
  /** Keeps with one of the owner's uploads where a post taking it crops it (Mastodon's `focus`). */
  placeCrop(ownerId: string, id: string, crop: PhotoCrop): Promise<void>;
  /**
   * Removes those of these uploads that nothing uses any more, row and every file, at once (the
   * photos of a post just deleted); one that another post, an avatar or a banner uses stays.
   */
  removeUnused(ids: (string | null)[]): Promise<number>;
}

export interface MediaServiceOptions {
  db: Queryable;
  storage: MediaStorage;
  /**
   * Answer once the main variant (what `secure_url` points at) and the thumbhash are stored and
   * the row is recorded with that one variant; the other variants are encoded and stored right
   * after, then added to the row (see `pendingVariants`). Off: every variant is stored before
   * `upload` returns (the seed, scripts).
   */
  deferVariants?: boolean;
  /** Where failures of deferred work go (nobody is waiting for it); the upload itself stands. */
  onDeferredError?: (error: unknown) => void;
}

/**
 * Deferred variant writes in progress in this process, by media folder (`post/<mediaId>/`). Until
 * one ends, the media row lists only the main variant, so nothing refers to a file not yet
 * written: a crash leaves a valid row (main only) and at most unlisted files.
 */
const pendingWrites = new Map<string, Promise<void>>();
const folderOf = (key: string) => key.slice(0, key.lastIndexOf('/') + 1);

/** The deferred writes of the upload `key` belongs to, while they run. Never rejects. */
export function pendingVariants(key: string): Promise<void> | undefined {
  return pendingWrites.get(folderOf(key));
}

/** Resolves once every deferred write started so far has ended (shutdown, tests). */
export async function deferredWritesSettled(): Promise<void> {
  while (pendingWrites.size > 0) await Promise.all(pendingWrites.values());
}

export function mediaService({
  db,
  storage,
  deferVariants = false,
  onDeferredError,
}: MediaServiceOptions): MediaService {
  const uploads = mediaRepository(db);
  /** Stores the files, then runs `record`; on any failure removes what it stored, so no orphans. */
  async function storeThen(
    files: { row: StoredVariant; variant: Variant }[],
    record: () => Promise<void>,
  ): Promise<void> {
    try {
      // Every write ends before any cleanup: a write still running would put its file back after it.
      const writes = await Promise.allSettled(
        files.map((f) => storage.put(f.row.key, f.variant.data, f.variant.contentType)),
      );
      const failed = writes.find((w) => w.status === 'rejected');
      if (failed) throw failed.reason;
      await record();
    } catch (error) {
      // A file without its row could never be cleaned up or found again.
      await storage.remove(files.map((f) => f.row.key)).catch(() => {});
      throw error;
    }
  }

  return {
    async upload(ownerId, preset, bytes, source = 'upload') {
      // Refusals (type, size, corrupt) happen here, before anything is written.
      const image = await stageImage(bytes, preset, ownerId, source);
      try {
        return await storeStaged(ownerId, preset, image);
      } catch (error) {
        // The staged pixels' job slot must not outlive a failed upload.
        image.release();
        throw error;
      }
    },

    findByUrl: (url) => findByUrl(uploads, storage, url),

    async findOwn(ownerId, id) {
      if (!isUuid(id)) return undefined;
      const row = await uploads.findOwnMedia(ownerId, id);
      return (
        row && {
          row,
          url: storage.url(row.storage_key),
          info: imageInfoOf(row, storage),
          processing: pendingVariants(row.storage_key) !== undefined,
        }
      );
    },

    async describe(ownerId, id, description) {
      if (description !== null) {
        const error = altError(description);
        if (error) throw new InvalidError(error, 'InvalidAlt');
      }
      await uploads.setDescription(ownerId, id, description);
    },

    async placeCrop(ownerId, id, crop) {
      await uploads.setCrop(ownerId, id, cropColumn(crop));
    },

    removeUnused: (ids) =>
      removeUnusedUploads(
        db,
        storage,
        ids.filter((id): id is string => id !== null),
      ),
  };

  async function storeStaged(ownerId: string, preset: UploadPreset, image: StagedImage): Promise<UploadResult> {
    // Random, not time-ordered: its files' address cannot be guessed, whoever may see the post (issue 70).
    const mediaId = randomUUID();
    const fileOf = (variant: Variant) => ({
      variant,
      row: {
        key: `${preset}/${mediaId}/${variant.width}.${variant.format}`,
        width: variant.width,
        height: variant.height,
        format: variant.format,
        bytes: variant.data.length,
      },
    });
    const main = fileOf(image.main);
    const rest = deferVariants ? [] : (await image.rest()).map(fileOf);
    await storeThen([main, ...rest], async () => {
      await uploads.insertMedia({
        id: mediaId,
        owner_id: ownerId,
        preset,
        storage_key: main.row.key,
        variants: JSON.stringify([main, ...rest].map((f) => f.row)),
        width: main.row.width,
        height: main.row.height,
        format: main.row.format,
        bytes: main.row.bytes,
        thumbhash: image.thumbhash,
        created_at: nowIso(),
      });
    });
    if (deferVariants) {
      const folder = folderOf(main.row.key);
      const work = (async () => {
        const files = (await image.rest()).map(fileOf);
        await storeThen(files, async () => {
          // The row lists the new files only once they are all stored.
          const kept = await uploads.setVariants(mediaId, JSON.stringify([main, ...files].map((f) => f.row)));
          if (!kept) throw new Error(`media ${mediaId} is gone; its variants were not kept`);
        });
      })()
        .catch((error) => onDeferredError?.(error))
        .finally(() => pendingWrites.delete(folder));
      pendingWrites.set(folder, work);
    }
    return {
      secure_url: storage.url(main.row.key),
      public_id: mediaId,
      width: main.row.width,
      height: main.row.height,
      format: main.row.format,
      bytes: main.row.bytes,
      thumbhash: image.thumbhash,
    };
  }
}

/** The keys of an upload's files, from its `variants` column. */
export const variantKeys = (variants: string): string[] =>
  (JSON.parse(variants) as StoredVariant[]).map((variant) => variant.key);

/**
 * Removes those of the uploads `ids` (made before `before`, when given) that no post's photo and no
 * avatar or banner uses; returns how many. Rows go first, then files: a crash in between leaves
 * unlisted files, never a row pointing at missing files.
 */
export async function removeUnusedUploads(
  db: Queryable,
  storage: MediaStorage,
  ids: string[],
  before?: Date,
): Promise<number> {
  const gone = await mediaRepository(db).deleteUnused([...new Set(ids)], storage.url(''), before);
  if (gone.length > 0) await storage.remove(gone.flatMap(variantKeys));
  return gone.length;
}

/**
 * The upload whose main URL is `url`, or undefined when `url` is not one of this server's
 * uploads (an outside link, a variant URL, a made-up key).
 */
export function findMediaByUrl(db: Queryable, storage: MediaStorage, url: string): Promise<MediaRow | undefined> {
  return findByUrl(mediaRepository(db), storage, url);
}

async function findByUrl(
  uploads: Pick<MediaRepository, 'findMediaByKey'>,
  storage: MediaStorage,
  url: string,
): Promise<MediaRow | undefined> {
  // Drivers build URLs as prefix + key, so the key is what follows the prefix.
  const prefix = storage.url('');
  if (!url.startsWith(prefix) || url.length === prefix.length) return undefined;
  // An upload made a moment ago may still be writing its other variants: wait, so a post made
  // with it (and the imageInfo worked out for it once) lists them all.
  await pendingVariants(url.slice(prefix.length));
  const row = await uploads.findMediaByKey(url.slice(prefix.length));
  return row && storage.url(row.storage_key) === url ? row : undefined;
}

/** `imageInfo` of a post: size, placeholder and the WebP candidates for `srcset`, smallest first. */
export function imageInfoOf(
  row: Pick<MediaRow, 'width' | 'height' | 'thumbhash' | 'variants'>,
  storage: MediaStorage,
): ImageInfo {
  const variants = JSON.parse(row.variants) as StoredVariant[];
  const srcset = variants
    .filter((v) => v.format === 'webp')
    .sort((a, b) => a.width - b.width)
    .map((v) => `${storage.url(v.key)} ${v.width}w`)
    .join(', ');
  return { width: row.width, height: row.height, thumbhash: row.thumbhash, srcset };
}
