/** The installed app's icons (files under public/icons/, drawn by scripts/icons.ts). */
export interface AppIcon {
  src: string;
  size: number;
  /** `apple`: the home-screen icon iOS reads from `<link rel="apple-touch-icon">`, not the manifest. */
  purpose: 'any' | 'maskable' | 'apple';
}

export const ICONS: readonly AppIcon[] = [
  { src: '/icons/icon-192.png', size: 192, purpose: 'any' },
  { src: '/icons/icon-512.png', size: 512, purpose: 'any' },
  { src: '/icons/maskable-192.png', size: 192, purpose: 'maskable' },
  { src: '/icons/maskable-512.png', size: 512, purpose: 'maskable' },
  { src: '/icons/apple-touch-icon.png', size: 180, purpose: 'apple' },
];
