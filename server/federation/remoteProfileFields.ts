/**
 * The profile fields of a person from elsewhere (Mastodon's `PropertyValue`s in their actor's
 * `attachment`, values in HTML) as kept in `users.profile_fields` (migration 023): values as text,
 * cleaned and bounded (`remoteFieldsOf`), never verified here (their server vouches for its own).
 */
import type { Context } from '@fedify/fedify';
import { type Actor, PropertyValue } from '@fedify/vocab';
import { type FieldInput, remoteFieldsOf } from '../../lib/profileFields';
import { storedFields } from '../users/profileFields';
import { textOfHtml } from './remoteText';

/** Attachments looked at: a profile has four fields; an actor may list more things. */
const ATTACHMENTS_SCANNED = 16;

/** Refuses every fetch: only attachments embedded in the actor are read (a profile costs no requests). */
const nothingFetched = async (url: string): Promise<never> => {
  throw new Error(`attachments are not fetched: ${url}`);
};

/** The column for their fields (null: none). */
export async function remoteProfileFieldsOf(ctx: Context<void>, actor: Actor): Promise<string | null> {
  const pairs: FieldInput[] = [];
  let scanned = 0;
  try {
    for await (const item of actor.getAttachments({
      documentLoader: nothingFetched,
      contextLoader: ctx.contextLoader,
      suppressError: true,
    })) {
      if (++scanned > ATTACHMENTS_SCANNED) break;
      if (item instanceof PropertyValue)
        pairs.push({ name: item.name?.toString() ?? '', value: textOfHtml(item.value?.toString() ?? '') });
    }
  } catch {
    // A malformed attachment: the fields read before it stand.
  }
  return storedFields(remoteFieldsOf(pairs), []);
}
