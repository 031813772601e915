/**
 * Where feeds crop a post's photo (issue 68, item 2): a focal point the crop keeps in view, or
 * "fit" (the whole photo, letterboxed in the box). Shared by the server (validation, storage,
 * Mastodon's `meta.focus`) and the front end (the composer and the feeds' `object-position`).
 */

/** `x`, `y` from 0 (left, top) to 1 (right, bottom); `fit`: the whole photo, not cropped. */
export interface PhotoCrop {
  x: number;
  y: number;
  fit: boolean;
}

export const CENTRE_CROP: PhotoCrop = { x: 0.5, y: 0.5, fit: false };

/** Three decimals: a thousandth of the photo is finer than any box shows. */
const round = (n: number) => Math.round(n * 1000) / 1000;

/** Why `value` is not a crop (`{ x, y, fit }`, x and y from 0 to 1, fit true or false), or null. */
export function cropError(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'crop must be an object: { "x": 0…1, "y": 0…1, "fit": true or false }';
  const { x, y, fit } = value as Record<string, unknown>;
  for (const [name, n] of [
    ['x', x],
    ['y', y],
  ] as const) {
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > 1)
      return `crop.${name} must be a number from 0 to 1`;
  }
  if (fit !== undefined && typeof fit !== 'boolean') return 'crop.fit must be true or false';
  return null;
}

/** The stored form (posts.crop): '' for the centre, 'fit', or 'x,y'. */
export function cropColumn(crop: PhotoCrop): string {
  if (crop.fit) return 'fit';
  const x = round(crop.x);
  const y = round(crop.y);
  return x === 0.5 && y === 0.5 ? '' : `${x},${y}`;
}

export function cropOfColumn(text: string | null | undefined): PhotoCrop {
  if (!text) return CENTRE_CROP;
  if (text === 'fit') return { ...CENTRE_CROP, fit: true };
  const [x, y] = text.split(',').map(Number);
  return Number.isFinite(x) && Number.isFinite(y) ? { x, y, fit: false } : CENTRE_CROP;
}

/** Mastodon's focal point: x and y from -1 to 1, y up (docs.joinmastodon.org, "Focal points"). */
export const mastodonFocus = (crop: PhotoCrop) => ({ x: round(crop.x * 2 - 1), y: round(1 - crop.y * 2) });

export const cropOfMastodonFocus = (focus: { x: number; y: number }): PhotoCrop => ({
  x: round((focus.x + 1) / 2),
  y: round((1 - focus.y) / 2),
  fit: false,
});

/** Mastodon's `focus` field ("x,y", each from -1 to 1, y up) as a crop; null when it is not that. */
export function cropOfFocusText(text: string): PhotoCrop | null {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length !== 2 || parts.includes('')) return null;
  const [x, y] = parts.map(Number);
  return [x, y].every((n) => Number.isFinite(n) && n >= -1 && n <= 1) ? cropOfMastodonFocus({ x, y }) : null;
}

/** How an `<img>` in a feed's box shows the photo. */
export const cropStyle = (crop: PhotoCrop | undefined) =>
  crop?.fit
    ? { objectFit: 'contain' as const }
    : { objectPosition: `${round((crop ?? CENTRE_CROP).x * 100)}% ${round((crop ?? CENTRE_CROP).y * 100)}%` };
