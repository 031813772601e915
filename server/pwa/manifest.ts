/**
 * The web app manifest (issue 74): installable as a standalone app opening on the home feed, in
 * the default theme's colours (dark gray), with "any" and "maskable" icons at the sizes launchers ask for, and
 * a share target taking one image (the service worker receives it; see worker.js).
 */
import { links } from '../../lib/pages';
import { SHARE_FILE_FIELD, SHARE_TARGET_PATH } from '../../lib/pwa';
import { DARK_GRAY } from '../rendering/darkGray';
import { ICONS } from './icons';

/** What a launcher shows under the icon: longer names are cut there anyway. */
const SHORT_NAME_MAX = 12;

export function webAppManifest(instanceName: string) {
  return {
    id: links.home(),
    name: instanceName,
    short_name: instanceName.length <= SHORT_NAME_MAX ? instanceName : instanceName.slice(0, SHORT_NAME_MAX).trimEnd(),
    description: 'Share photos with the people you follow.',
    lang: 'en',
    start_url: links.home(),
    scope: '/',
    display: 'standalone',
    background_color: DARK_GRAY.bg,
    theme_color: DARK_GRAY.bg,
    icons: ICONS.filter((icon) => icon.purpose !== 'apple').map((icon) => ({
      src: icon.src,
      sizes: `${icon.size}x${icon.size}`,
      type: 'image/png',
      purpose: icon.purpose,
    })),
    share_target: {
      action: SHARE_TARGET_PATH,
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { files: [{ name: SHARE_FILE_FIELD, accept: ['image/jpeg', 'image/png', '.jpg', '.jpeg', '.png'] }] },
    },
  };
}
