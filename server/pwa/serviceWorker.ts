/**
 * The service worker's script (issue 74): server/pwa/worker.js after a `CONFIG` line naming this
 * build. A new build (or a changed worker) makes a different script, so browsers install it and
 * drop the old build's files. What it precaches: the offline shell, the manifest's icons, and the
 * files of the shared first load (`_app`, the polyfills) and every stylesheet, from Next's build
 * manifest.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { links } from '../../lib/pages';
import {
  OFFLINE_PATH,
  SHARE_CACHE,
  SHARE_FILE_FIELD,
  SHARE_TARGET_PATH,
  SHARED_IMAGE_KEY,
  SHARED_IMAGE_PAGE,
  SHARED_NAME_HEADER,
} from '../../lib/pwa';
import { STATIC_PREFIX } from '../http/staticFiles';
import { ICONS } from './icons';

const WORKER_SOURCE = path.join(import.meta.dirname, 'worker.js');

interface BuildManifest {
  polyfillFiles?: string[];
  lowPriorityFiles?: string[];
  pages?: Record<string, string[]>;
}

/** The static files every page needs, as URLs (`/_next/static/…`), from `.next/build-manifest.json`. */
export function precacheList(manifest: BuildManifest): string[] {
  const files = new Set<string>([...(manifest.polyfillFiles ?? []), ...(manifest.pages?.['/_app'] ?? [])]);
  for (const list of Object.values(manifest.pages ?? {}))
    for (const file of list) if (file.endsWith('.css')) files.add(file);
  return [...files].filter((file) => file.startsWith('static/')).map((file) => `/_next/${file}`);
}

/** The requests that end a session in this browser: the worker empties its personal caches on them. */
export const SIGN_OUT_REQUESTS: [string, string][] = [
  ['POST', '/api/auth/logout'],
  ['DELETE', '/api/users/me'],
];
/** `DELETE` of one of its sessions (`/{id}`) may end this browser's: the worker asks this list after. */
export const SESSIONS_PATH = '/api/auth/sessions';
/** What the worker calls when the push service replaces the browser's subscription (docs/API.md). */
export const REFRESH_PATH = '/api/auth/refresh';
export const PUSH_SUBSCRIPTION_PATH = '/api/push/subscription';

/** The app's icons the worker keeps (the manifest's; iOS reads its own at install). */
export const cachedIcons = () => ICONS.filter((icon) => icon.purpose !== 'apple').map((icon) => icon.src);

export function serviceWorkerScript({
  buildId,
  precache,
  name,
}: {
  buildId: string;
  precache: string[];
  name: string;
}): string {
  const source = readFileSync(WORKER_SOURCE, 'utf8');
  const config = {
    name,
    precache,
    offline: OFFLINE_PATH,
    home: links.home(),
    notifications: links.notifications(),
    staticPrefix: STATIC_PREFIX,
    shareTarget: SHARE_TARGET_PATH,
    shareField: SHARE_FILE_FIELD,
    sharedPage: SHARED_IMAGE_PAGE,
    shareCache: SHARE_CACHE,
    sharedKey: SHARED_IMAGE_KEY,
    sharedNameHeader: SHARED_NAME_HEADER,
    signOut: SIGN_OUT_REQUESTS,
    sessions: SESSIONS_PATH,
    refresh: REFRESH_PATH,
    pushSubscription: PUSH_SUBSCRIPTION_PATH,
    icons: cachedIcons(),
    version: '',
  };
  // The worker's own text counts too: changing it must reach browsers without a new build.
  config.version = createHash('sha256')
    .update(buildId)
    .update(source)
    .update(JSON.stringify(config))
    .digest('base64url')
    .slice(0, 16);
  return `const CONFIG = ${JSON.stringify(config)};\n${source}`;
}

/** The script for the build in `distDir` (`.next`); null without a production build (development). */
export function builtServiceWorker(distDir: string, name: string): string | null {
  const manifestFile = path.join(distDir, 'build-manifest.json');
  const buildIdFile = path.join(distDir, 'BUILD_ID');
  if (!existsSync(manifestFile) || !existsSync(buildIdFile)) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BuildManifest;
  return serviceWorkerScript({
    buildId: readFileSync(buildIdFile, 'utf8').trim(),
    precache: precacheList(manifest),
    name,
  });
}
