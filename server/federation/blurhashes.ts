/**
 * `blurhash` on the `Image` of this instance's post Notes (Mastodon's `toot:blurhash`), derived from
 * the image's ThumbHash (`media/blurhash.ts`). Fedify's vocabulary has no such property and drops
 * what it does not know, so it is written into the JSON as it leaves, where `attachment` is made an
 * array too (`routes.ts` for served documents, `deliveries.ts` for deliveries): the post ids of the
 * Notes found are read in one statement.
 */
import { blurhashOfThumbhash } from '../media/blurhash';

type Json = Record<string, unknown>;

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

/** Adds `blurhash` to the context's Mastodon terms (`toot:` is Fedify's already). */
function declareBlurhash(json: Json) {
  const context = json['@context'];
  if (!Array.isArray(context)) return;
  const terms = context.find((item): item is Json => isObject(item) && 'toot' in item);
  if (terms) terms.blurhash = 'toot:blurhash';
  else context.push({ toot: 'http://joinmastodon.org/ns#', blurhash: 'toot:blurhash' });
}

/**
 * The document with each post Note's `Image` given its blurhash (when its image has a thumbhash).
 * `origin`: this site's; `thumbhashesOf`: the posts' images' thumbhashes, by post id.
 */
export async function withBlurhashes(
  json: unknown,
  origin: string,
  thumbhashesOf: (postIds: string[]) => Promise<Map<string, string | null>>,
): Promise<unknown> {
  const prefix = `${origin}/post/`;
  const found = new Map<string, Json[]>();
  postNotes(json, (noteId) => (noteId.startsWith(prefix) ? noteId.slice(prefix.length) || null : null), found);
  if (found.size === 0 || !isObject(json)) return json;
  const thumbhashes = await thumbhashesOf([...found.keys()]);
  let added = false;
  for (const [postId, notes] of found) {
    const blurhash = blurhashOfThumbhash(thumbhashes.get(postId));
    if (!blurhash) continue;
    for (const note of notes)
      for (const item of [note.attachment].flat())
        if (isObject(item) && item.type === 'Image') {
          item.blurhash = blurhash;
          added = true;
        }
  }
  if (added) declareBlurhash(json);
  return json;
}
