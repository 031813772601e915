/**
 * A display name and profile links (issue 68, item 32), as Mastodon bounds them: the rules shared by
 * the Settings form and the server. Kept out of `limits.ts`/`validation.ts`, which the shell loads:
 * only the Settings page and the server need these.
 */

/** Mastodon's `display_name` limit for its own accounts. */
export const DISPLAY_NAME_MAX = 30;
/** A name from elsewhere is kept up to this many characters (Mastodon leaves others' unbounded). */
export const REMOTE_DISPLAY_NAME_MAX = 100;
/** Mastodon's `fields_attributes`: four links, a name of 255 characters, a value of 2047. */
export const PROFILE_FIELDS_MAX = 4;
export const FIELD_NAME_MAX = 255;
export const FIELD_VALUE_MAX = 2047;

/** One profile link as the API answers it: `verifiedAt` once its page links back with `rel="me"`. */
export interface ProfileField {
  name: string;
  value: string;
  verifiedAt: string | null;
}

// C0 and C1 controls, DEL.
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS_ALL = /[\u0000-\u001f\u007f-\u009f]/g;
/**
 * Direction overrides, embeddings, isolates and marks, zero-width characters and the BOM: they can
 * make a name read as another (`evil<RLO>nimda` shows as `evil` + `admin` backwards) or vanish.
 */
const INVISIBLES = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;
const INVISIBLES_ALL = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** A name as typed, made one form: NFC and trimmed. '' is no name (the username shows). */
export const normalizeDisplayName = (raw: string): string => raw.normalize('NFC').trim();

/** Why a local display name (already normalized) is refused, or null. */
export function displayNameError(name: string): string | null {
  if (name.length > DISPLAY_NAME_MAX) return `Display name must be at most ${DISPLAY_NAME_MAX} characters`;
  if (CONTROLS.test(name)) return 'Display name must not contain control characters';
  if (INVISIBLES.test(name)) return 'Display name must not contain invisible or text-direction characters';
  return null;
}

/** Text from elsewhere: controls as spaces, invisibles dropped, runs of spaces made one, trimmed, bounded. */
function cleanRemote(raw: string, max: number): string {
  const cleaned = raw
    .normalize('NFC')
    .replace(CONTROLS_ALL, ' ')
    .replace(INVISIBLES_ALL, '')
    .replace(/\s+/g, ' ')
    .trim();
  // Cut by code point, so no half of a surrogate pair is left at the end.
  return Array.from(cleaned).slice(0, max).join('').trim();
}

/**
 * Another server's `name` as kept here: controls and invisibles dropped, runs of spaces made one,
 * bounded, trimmed; null when nothing is left or it only repeats `username` (what servers send when
 * a person set none): their full handle shows then. Never refused: theirs to name.
 */
export function remoteDisplayNameOf(raw: string | null | undefined, username: string): string | null {
  if (!raw) return null;
  const bounded = cleanRemote(raw, REMOTE_DISPLAY_NAME_MAX);
  return bounded === '' || bounded.toLowerCase() === username.toLowerCase() ? null : bounded;
}

/**
 * Another server's profile fields (Mastodon's `PropertyValue`s, values already as text) as kept
 * here: cleaned as a name from elsewhere is, within Mastodon's field limits, those without a name or
 * a value dropped, the first four kept. Never refused.
 */
export function remoteFieldsOf(pairs: readonly FieldInput[]): FieldInput[] {
  return pairs
    .map(({ name, value }) => ({ name: cleanRemote(name, FIELD_NAME_MAX), value: cleanRemote(value, FIELD_VALUE_MAX) }))
    .filter((field) => field.name !== '' && field.value !== '')
    .slice(0, PROFILE_FIELDS_MAX);
}

/** Whether a field's value is a web address (linked on the profile) and the one verification fetches. */
export function linkOf(value: string): URL | null {
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

export interface FieldInput {
  name: string;
  value: string;
}

/**
 * The fields as sent, trimmed, the empty ones (no name and no value) dropped, or why they are
 * refused (which field, counting from 1).
 */
export function readFields(input: readonly FieldInput[]): { fields: FieldInput[] } | { error: string } {
  const fields = input
    .map((f) => ({ name: f.name.normalize('NFC').trim(), value: f.value.normalize('NFC').trim() }))
    .filter((f) => f.name !== '' || f.value !== '');
  if (fields.length > PROFILE_FIELDS_MAX) return { error: `At most ${PROFILE_FIELDS_MAX} profile links` };
  for (const [i, { name, value }] of fields.entries()) {
    const which = `Profile link ${i + 1}`;
    if (name === '') return { error: `${which} needs a label` };
    if (value === '') return { error: `${which} needs a value` };
    if (name.length > FIELD_NAME_MAX) return { error: `${which}'s label must be at most ${FIELD_NAME_MAX} characters` };
    if (value.length > FIELD_VALUE_MAX)
      return { error: `${which}'s value must be at most ${FIELD_VALUE_MAX} characters` };
    if (CONTROLS.test(name) || CONTROLS.test(value)) return { error: `${which} must not contain control characters` };
    if (INVISIBLES.test(name) || INVISIBLES.test(value))
      return { error: `${which} must not contain invisible or text-direction characters` };
  }
  return { fields };
}
