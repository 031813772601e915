/**
 * An app's redirect URIs: absolute, without a fragment, and never a scheme that would run or read
 * something in the person's browser (`javascript:`, `data:`, `file:`...) when the consent form sends
 * them there. Checked when the app registers and again at every authorization (apps registered
 * before this rule may hold such a URI).
 */
import { InvalidError } from '../domain/errors';

export const OOB_REDIRECT = 'urn:ietf:wg:oauth:2.0:oob';
const URL_MAX = 2000;

/** Schemes a browser runs, reads locally, or shows as a document of its own rather than handing to an app. */
const UNSAFE_SCHEMES = new Set([
  'javascript:',
  'vbscript:',
  'data:',
  'file:',
  'blob:',
  'filesystem:',
  'about:',
  'view-source:',
]);

/** Why `uri` may not be a redirect URI, or null when it may. */
export function redirectUriProblem(uri: string): string | null {
  if (uri === OOB_REDIRECT) return null;
  if (uri.length > URL_MAX) return `redirect_uris must be at most ${URL_MAX} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `redirect_uris must be absolute URIs: ${uri}`;
  }
  if (UNSAFE_SCHEMES.has(url.protocol)) return `redirect_uris must not use the ${url.protocol} scheme: ${uri}`;
  if (url.hash || uri.includes('#')) return `redirect_uris must have no fragment: ${uri}`;
  return null;
}

/** `POST /api/v1/apps`' `redirect_uris`: one URI, several separated by white space, or an array. */
export function readRedirectUris(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/\s+/) : null;
  if (!list || list.some((u) => typeof u !== 'string')) throw new InvalidError('redirect_uris must be text');
  const uris = (list as string[]).map((u) => u.trim()).filter(Boolean);
  if (uris.length === 0) throw new InvalidError("redirect_uris can't be blank");
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new InvalidError(problem);
  }
  return uris;
}
