/**
 * OAuth scopes as Mastodon names them: `read`, `write`, `follow`, `push`, and their parts
 * (`read:statuses`, `write:media`...). A granted scope covers a required one when it is the same or
 * its parent; `follow` is Mastodon's old name for the follow and block parts of read and write.
 */
import { InvalidError } from '../domain/errors';

const TOP = ['read', 'write', 'follow', 'push'] as const;
const READ_PARTS = [
  'accounts',
  'blocks',
  'bookmarks',
  'favourites',
  'filters',
  'follows',
  'lists',
  'mutes',
  'notifications',
  'search',
  'statuses',
];
const WRITE_PARTS = [
  'accounts',
  'blocks',
  'bookmarks',
  'conversations',
  'favourites',
  'filters',
  'follows',
  'lists',
  'media',
  'mutes',
  'notifications',
  'reports',
  'statuses',
];

export const KNOWN_SCOPES: ReadonlySet<string> = new Set([
  ...TOP,
  // Mastodon's admin scopes, apart from `read`/`write` (neither covers them): `admin:write` lets an
  // admin's app delete other people's statuses (`mastodon/statuses.ts`).
  'admin:read',
  'admin:write',
  ...READ_PARTS.map((p) => `read:${p}`),
  ...WRITE_PARTS.map((p) => `write:${p}`),
]);

/** What the legacy `follow` scope stands for. */
const FOLLOW_PARTS = new Set([
  'read:follows',
  'write:follows',
  'read:blocks',
  'write:blocks',
  'read:mutes',
  'write:mutes',
]);

/** Space- (or `+`-) separated scopes, checked; `read` when none are given, as Mastodon does. */
export function parseScopes(raw: unknown): string[] {
  if (raw !== undefined && raw !== null && typeof raw !== 'string') throw new InvalidError('scope must be text');
  // Stryker disable next-line Regex: split one separator at a time, the empty parts are filtered out alike
  const scopes = [...new Set((raw ?? '').split(/[\s+]+/).filter(Boolean))];
  if (scopes.length === 0) return ['read'];
  const unknown = scopes.find((s) => !KNOWN_SCOPES.has(s));
  if (unknown) throw new InvalidError(`Unknown scope: ${unknown}`, 'invalid_scope');
  return scopes;
}

/** Whether the granted scopes allow an endpoint that needs `required` (e.g. `write:statuses`). */
export function covers(granted: readonly string[], required: string): boolean {
  const parent = required.split(':')[0];
  return (
    granted.includes(required) || granted.includes(parent) || (granted.includes('follow') && FOLLOW_PARTS.has(required))
  );
}

/** Every requested scope must be among those the app registered (or their parts). */
export function allowedFor(registered: readonly string[], requested: readonly string[]): boolean {
  return requested.every((s) => covers(registered, s));
}
