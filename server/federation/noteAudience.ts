/**
 * A Note from elsewhere's audience, read from its addressing as Mastodon writes each visibility
 * (issue 70): Public in `to` is public, in `cc` unlisted; no Public and a collection among the
 * addressees (the author's followers) is followers-only; only people, those it names.
 */
import { PUBLIC_COLLECTION, type Note } from '@fedify/vocab';
import type { Audience } from '../../lib/audience';

/** Public as servers write it: the full IRI, or its compacted forms. */
const isPublic = (url: URL) => url.href === PUBLIC_COLLECTION.href || url.href === 'as:Public' || url.href === 'Public';

export function noteAudience(note: Note, namedActors: readonly string[]): Audience {
  if (note.toIds.some(isPublic)) return 'public';
  if (note.ccIds.some(isPublic)) return 'unlisted';
  const addressed = [...note.toIds, ...note.ccIds].map((url) => url.href);
  return addressed.every((href) => namedActors.includes(href)) ? 'mentioned' : 'followers';
}
