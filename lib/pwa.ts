/**
 * What the pages, the service worker and the server agree on for the installed app (issue 74):
 * where the worker and the manifest live, where a share lands, and where the worker keeps a shared
 * image until the composer takes it. Server-only and worker-only code import it; no page does
 * (the registration is an inline snippet, pages/_document.tsx).
 */
export const SERVICE_WORKER_PATH = '/sw.js';
export const MANIFEST_PATH = '/manifest.webmanifest';
/** The offline shell: what a page load without network shows. */
export const OFFLINE_PATH = '/offline';
/** The manifest's `share_target.action`: a POST of `multipart/form-data` with the image as `image`. */
export const SHARE_TARGET_PATH = '/share';
export const SHARE_FILE_FIELD = 'image';
/** Where a share sends the person: the composer opens there with the image. */
export const SHARED_IMAGE_PAGE = '/home?shared=image';
/** The worker's cache for a shared image (personal: emptied on sign-out), and the image's key in it. */
export const SHARE_CACHE = 'posts-shared';
export const SHARED_IMAGE_KEY = '/shared-image';
/** The shared file's name travels in this header of the cached answer. */
export const SHARED_NAME_HEADER = 'x-shared-name';

/** A push's icon when its actor has no avatar: the app's own (server/pwa/icons.ts). */
export const NOTIFICATION_ICON_PATH = '/icons/icon-192.png';

/** Registers the worker after the load, off the first load's JavaScript (an inline script). */
export const registerServiceWorkerScript = `if('serviceWorker'in navigator)addEventListener('load',function(){navigator.serviceWorker.register(${JSON.stringify(SERVICE_WORKER_PATH)}).catch(function(){})});`;
