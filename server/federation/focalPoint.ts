/**
 * Mastodon's `focalPoint` (`toot:focalPoint`, `[x, y]` from -1 to 1, y up) on a Note's image, read
 * from the activity as it was sent: Fedify's vocabulary has no such property and drops it while
 * parsing. The crop a kept post gets (posts' crop form, lib/photoCrop.ts); '' (the centre) when none.
 */
import { cropColumn, cropOfMastodonFocus } from '../../lib/photoCrop';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An attachment's addresses: `url` as a string, a Link (`href`), or a list of either. */
const urlsOf = (url: unknown): string[] =>
  [url]
    .flat()
    .flatMap((item) =>
      typeof item === 'string' ? [item] : isObject(item) && typeof item.href === 'string' ? [item.href] : [],
    );

const isFocus = (value: unknown): value is [number, number] =>
  Array.isArray(value) &&
  value.length === 2 &&
  value.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= -1 && n <= 1);

/**
 * An attachment's focal point as Mastodon writes it (`focalPoint: [x, y]`), or as Fedify compacts
 * it again when the term is not in its own context (the activity as kept, `toJsonLd()`): the full
 * term, its value an `@list` (a Posts instance's Notes arrive so).
 */
function focalPointOf(item: Json): [number, number] | null {
  const value = item.focalPoint ?? item['toot:focalPoint'] ?? item['http://joinmastodon.org/ns#focalPoint'];
  const list = isObject(value) ? value['@list'] : value;
  return isFocus(list) ? list : null;
}

/**
 * The crop of the image at `imageUrl` in Note `noteId`, as `sent` (a Create or Update with the Note
 * embedded, or the Note itself, in compact JSON) gives its focal point.
 */
export function sentFocalCrop(sent: unknown, noteId: string, imageUrl: string): string {
  if (!isObject(sent)) return '';
  const note = sent.id === noteId ? sent : isObject(sent.object) && sent.object.id === noteId ? sent.object : null;
  if (!note) return '';
  for (const item of [note.attachment].flat()) {
    if (!isObject(item) || !urlsOf(item.url).includes(imageUrl)) continue;
    const focus = focalPointOf(item);
    return focus ? cropColumn(cropOfMastodonFocus({ x: focus[0], y: focus[1] })) : '';
  }
  return '';
}
