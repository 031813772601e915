/**
 * The installed app's icons (issue 74), drawn from one SVG (the favicon's picture) and written as
 * PNGs under public/icons/: `npm run icons` after changing the drawing; the PNGs are committed.
 * "any" icons are the rounded tile as the favicon draws it; "maskable" ones fill the square with
 * the tile's colour and keep the picture inside the central 80% circle a launcher may cut to.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { ICONS, type AppIcon } from '../server/pwa/icons';

const TILE = '#8fb3ff';
const INK = '#0b1633';

/** The favicon's picture (a framed photo) in a 32-unit box. */
const PICTURE = `<rect x="7" y="7" width="18" height="18" rx="4" fill="none" stroke="${INK}" stroke-width="2.5"/><circle cx="13" cy="13" r="2.4" fill="${INK}"/><path d="M8.5 22.5l5.5-6 4 4 3-3 3.5 4" fill="none" stroke="${INK}" stroke-width="2.5" stroke-linejoin="round"/>`;

export function iconSvg(icon: Pick<AppIcon, 'purpose'>): string {
  if (icon.purpose === 'maskable')
    // The picture spans 18 of 32 units: scaled to 0.75 it spans 42% of the side, well inside the safe circle.
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${TILE}"/><g transform="translate(4 4) scale(0.75)">${PICTURE}</g></svg>`;
  // Apple's home screen rounds the corners itself and shows transparency as black: a full square.
  const radius = icon.purpose === 'apple' ? 0 : 8;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="${radius}" fill="${TILE}"/>${PICTURE}</svg>`;
}

export async function writeIcons(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const icon of ICONS)
    await sharp(Buffer.from(iconSvg(icon)), { density: (72 * icon.size) / 32 })
      .resize(icon.size, icon.size)
      .png({ compressionLevel: 9 })
      .toFile(path.join(dir, path.basename(icon.src)));
}

if (process.argv[1] === import.meta.filename) await writeIcons(path.resolve(import.meta.dirname, '../public/icons'));
