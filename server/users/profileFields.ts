/**
 * Profile links as stored (`users.profile_fields`, migration 023): a JSON array of
 * `{ name, value, verified_at }`. A value that changes loses its verification (as Mastodon's).
 */
import type { FieldInput, ProfileField } from '../../lib/profileFields';
import { PROFILE_FIELDS_MAX } from '../../lib/profileFields';

interface StoredField {
  name: string;
  value: string;
  verified_at: string | null;
}

/** The kept links; a column written by hand or by an older version never breaks a profile: none then. */
export function fieldsOf(json: string | null): ProfileField[] {
  if (!json) return [];
  try {
    const stored = JSON.parse(json) as unknown;
    if (!Array.isArray(stored)) return [];
    return stored
      .filter((f): f is StoredField => typeof f?.name === 'string' && typeof f?.value === 'string')
      .slice(0, PROFILE_FIELDS_MAX)
      .map((f) => ({
        name: f.name,
        value: f.value,
        verifiedAt: typeof f.verified_at === 'string' ? f.verified_at : null,
      }));
  } catch {
    return [];
  }
}

/** The column for `fields` (null: none), each keeping the verification of a kept link with the same value. */
export function storedFields(fields: readonly FieldInput[], before: readonly ProfileField[]): string | null {
  if (fields.length === 0) return null;
  return JSON.stringify(
    fields.map(({ name, value }) => ({
      name,
      value,
      verified_at: before.find((b) => b.value === value)?.verifiedAt ?? null,
    })),
  );
}

/** The column with the field holding `value` marked verified at `at` (unchanged when none holds it). */
export function withVerified(json: string | null, value: string, at: string): string | null {
  const fields = fieldsOf(json);
  if (!fields.some((f) => f.value === value && f.verifiedAt === null)) return json;
  return JSON.stringify(
    fields.map((f) => ({
      name: f.name,
      value: f.value,
      verified_at: f.value === value && f.verifiedAt === null ? at : f.verifiedAt,
    })),
  );
}
