/**
 * Mastodon's extras on the `Image` of this instance's post Notes: `blurhash` (`toot:blurhash`,
 * derived from the image's ThumbHash, `media/blurhash.ts`) and `focalPoint` (`toot:focalPoint`,
 * `[x, y]` from -1 to 1, y up: the post's crop, none when it is "fit"). Fedify's vocabulary has
 * neither and drops what it does not know, so they are written into the JSON as it leaves, where
 * `attachment` is made an array too (`routes.ts` for served documents, `deliveries.ts` for
 * deliveries): the facts of the posts whose Notes are found are read in one statement.
 */
import { type PhotoCrop, mastodonFocus } from '../../lib/photoCrop';
import { blurhashOfThumbhash } from '../media/blurhash';

type Json = Record<string, unknown>;

/** What a post's Note image gets from here. */
export interface NoteImageFacts {
  thumbhash: string | null;
  crop: PhotoCrop;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every Note of this site's posts in the document (a Note, a Create, an outbox page), by post id. */
function postNotes(json: unknown, postId: (noteId: string) => string | null, found: Map<string, Json[]>) {
  if (Array.isArray(json)) for (const item of json) postNotes(item, postId, found);
  else if (isObject(json)) {
    const id = json.type === 'Note' && typeof json.id === 'string' ? postId(json.id) : null;
    if (id) found.set(id, [...(found.get(id) ?? []), json]);
    for (const value of Object.values(json)) postNotes(value, postId, found);
  }
}

/** Declares the terms used among the context's Mastodon terms (`toot:` is Fedify's already). */
function declareTerms(json: Json, used: { blurhash: boolean; focalPoint: boolean }) {
  const context = json['@context'];
  if (!Array.isArray(context) || !(used.blurhash || used.focalPoint)) return;
  let terms = context.find((item): item is Json => isObject(item) && 'toot' in item);
  if (!terms) context.push((terms = { toot: 'http://joinmastodon.org/ns#' }));
  if (used.blurhash) terms.blurhash = 'toot:blurhash';
  // Mastodon's own definition: an ordered list, so [x, y] keeps its order through JSON-LD.
  if (used.focalPoint) terms.focalPoint = { '@container': '@list', '@id': 'toot:focalPoint' };
}

/**
 * The document with each post Note's `Image` given its blurhash (when its image has a thumbhash)
 * and its focal point. `origin`: this site's; `factsOf`: the posts' image facts, by post id, one
 * per photo in the order of the Note's images.
 */
export async function withImageExtras(
  json: unknown,
  origin: string,
  factsOf: (postIds: string[]) => Promise<Map<string, NoteImageFacts[]>>,
): Promise<unknown> {
  const prefix = `${origin}/post/`;
  const found = new Map<string, Json[]>();
  postNotes(json, (noteId) => (noteId.startsWith(prefix) ? noteId.slice(prefix.length) || null : null), found);
  if (found.size === 0 || !isObject(json)) return json;
  const facts = await factsOf([...found.keys()]);
  const used = { blurhash: false, focalPoint: false };
  for (const [postId, notes] of found) {
    const photos = facts.get(postId);
    if (!photos) continue;
    for (const note of notes) {
      // The Note's images are the post's photos, in order (issue 71).
      const images = [note.attachment].flat().filter((item) => isObject(item) && item.type === 'Image') as Json[];
      for (const [i, item] of images.entries()) {
        const fact = photos[i];
        if (!fact) continue;
        const blurhash = blurhashOfThumbhash(fact.thumbhash);
        const focus = fact.crop.fit ? null : mastodonFocus(fact.crop);
        if (blurhash) {
          item.blurhash = blurhash;
          used.blurhash = true;
        }
        if (focus) {
          item.focalPoint = [focus.x, focus.y];
          used.focalPoint = true;
        }
      }
    }
  }
  declareTerms(json, used);
  return json;
}
