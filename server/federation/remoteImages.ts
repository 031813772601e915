/**
 * Images from elsewhere (avatars, banners, posts' attachments; issue 32): fetched once, with a
 * timeout and the uploads' size cap, then put through the upload pipeline itself and served from
 * this instance's media, so the pages' CSP never names another server. The pipeline gives them
 * every bound an upload has (issue 68, item 34): the same job queue, the header checked before any
 * decode, the time limit, and a format allow-list read from the bytes (JPEG, PNG, WebP, GIF, AVIF;
 * never SVG). Any failure is `null`: the caller keeps a placeholder (or no avatar).
 */
import { UPLOAD_MAX_BYTES, type UploadPreset } from '../../lib/limits';
import { limiter } from '../domain/limiter';
import type { MediaService } from '../media/service';
import { guardedFetch } from '../outgoing/outgoingGuard';

/**
 * Images from elsewhere being fetched or waiting for the job queue at once, in this process.
 * Anyone can make people elsewhere, and each has their own turn in the queue: without this, a crowd
 * of them arriving together would each hold up to 4 MB while they wait, and an upload would wait
 * behind them all. Past it, the next waits before it fetches, holding nothing. Exported for tests.
 */
const REMOTE_IMAGES_AT_ONCE = 8;
export const remoteImageTurns = limiter(REMOTE_IMAGES_AT_ONCE);

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
      // An upload of UPLOAD_MAX_BYTES or more is refused; the cap counts the bytes after any
      // Content-Encoding is undone, so a compressed body cannot unpack past it.
      maxBytes: UPLOAD_MAX_BYTES - 1,
    });
    return status === 200 ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : null;
  } catch {
    return null;
  }
}

/** Fetches the image and stores it as `ownerId`'s upload: its main URL and media id, or null. */
export async function storeRemoteImage(
  media: Pick<MediaService, 'upload'>,
  ownerId: string,
  preset: UploadPreset,
  url: string,
  allowPrivateAddress: boolean,
): Promise<{ url: string; mediaId: string } | null> {
  return remoteImageTurns.run(() => fetchAndStore(media, ownerId, preset, url, allowPrivateAddress));
}

async function fetchAndStore(
  media: Pick<MediaService, 'upload'>,
  ownerId: string,
  preset: UploadPreset,
  url: string,
  allowPrivateAddress: boolean,
): Promise<{ url: string; mediaId: string } | null> {
  const bytes = await fetchImageBytes(url, allowPrivateAddress);
  if (!bytes) return null;
  try {
    // Refused formats (SVG, HTML, HEIC…), headers that promise too much, a decode past the time
    // limit: refused before anything is stored, as an upload would be.
    const stored = await media.upload(ownerId, preset, bytes, 'remote');
    return { url: stored.secure_url, mediaId: stored.public_id };
  } catch {
    // A placeholder, like a failed fetch.
    return null;
  }
}
