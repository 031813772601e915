import { SHARE_CACHE, SHARED_IMAGE_KEY, SHARED_NAME_HEADER } from '../../../lib/pwa';

/**
 * The image another app shared (the service worker keeps it in Cache Storage until the composer
 * takes it), as a File; null when there is none (shared, then signed out, or taken already).
 */
export async function takeSharedImage(): Promise<File | null> {
  if (typeof caches === 'undefined') return null;
  const cache = await caches.open(SHARE_CACHE);
  const kept = await cache.match(SHARED_IMAGE_KEY);
  if (!kept) return null;
  const blob = await kept.blob();
  const name = decodeURIComponent(kept.headers.get(SHARED_NAME_HEADER) ?? 'shared-image');
  await cache.delete(SHARED_IMAGE_KEY);
  return new File([blob], name, { type: blob.type });
}
