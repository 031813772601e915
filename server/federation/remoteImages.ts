/**
 * Images from elsewhere (avatars, posts' attachments; issue 32): fetched once, with a timeout and
 * the uploads' size cap, then put through the same pipeline as an upload and served from this
 * instance's media, so the pages' CSP never names another server. Any failure is `null`: the
 * caller keeps a placeholder (or no avatar).
 */
import sharp from 'sharp';
import { UPLOAD_MAX_BYTES, UPLOAD_MAX_PIXELS, type UploadPreset } from '../../lib/limits';
import { sniffImageType } from '../media/pipeline';
import type { MediaService } from '../media/service';
import { guardedFetch } from './outgoingGuard';

const FETCH_TIMEOUT_MS = 15_000;

/** Shown for a post from elsewhere whose image could not be fetched or read (public/). */
export const MISSING_REMOTE_IMAGE = '/remote-image-missing.svg';

/**
 * The body, or null when it is not an image, too large, does not come, or is on a private address
 * (unless `allowPrivateAddress`): past the cap the rest is never read.
 */
export async function fetchImageBytes(url: string, allowPrivateAddress: boolean): Promise<Buffer | null> {
  try {
    const { status, body } = await guardedFetch(url, {
      allowPrivateAddress,
      accept: 'image/*',
      timeoutMs: FETCH_TIMEOUT_MS,
      maxBytes: UPLOAD_MAX_BYTES,
    });
    return status === 200 ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : null;
  } catch {
    return null;
  }
}

/** One conversion at a time in this process: each holds a decoded image in memory. */
let converting: Promise<unknown> = Promise.resolve();

/**
 * Other servers also send WebP, GIF and AVIF, which uploads here are not: such an image (its first
 * frame) becomes a PNG, within the uploads' pixel limit, and then goes through the pipeline like
 * any upload (which checks it again). JPEG and PNG go as they came.
 */
async function asPipelineInput(bytes: Buffer): Promise<Buffer | null> {
  if (sniffImageType(bytes) !== null) return bytes;
  const work = converting.then(() =>
    sharp(bytes, { failOn: 'error', limitInputPixels: UPLOAD_MAX_PIXELS, animated: false })
      .png()
      .toBuffer()
      .catch(() => null),
  );
  converting = work;
  return work;
}

/** Fetches the image and stores it as `ownerId`'s upload: its main URL and media id, or null. */
export async function storeRemoteImage(
  media: Pick<MediaService, 'upload'>,
  ownerId: string,
  preset: UploadPreset,
  url: string,
  allowPrivateAddress: boolean,
): Promise<{ url: string; mediaId: string } | null> {
  const fetched = await fetchImageBytes(url, allowPrivateAddress);
  const bytes = fetched && (await asPipelineInput(fetched));
  if (!bytes) return null;
  try {
    const stored = await media.upload(ownerId, preset, bytes);
    return { url: stored.secure_url, mediaId: stored.public_id };
  } catch {
    // Not an image the pipeline takes (size, pixels, corrupt): a placeholder, like a failed fetch.
    return null;
  }
}
