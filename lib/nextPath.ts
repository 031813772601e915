/**
 * Where a sign-in returns to (`/login?next=`): a path on this site, or nothing. One check for the
 * server's redirects and the client's, since a `next` is anyone's to write (an open redirect
 * otherwise: `//evil.example` is a path to a browser only until it is followed).
 */

/** Where a sign-in goes when it was given no safe `next`. */
export const AFTER_SIGN_IN = '/home';

/** The query field that carries it. */
export const NEXT_PARAM = 'next';

const MAX_LENGTH = 2048;
// C0 controls, DEL and the C1 block: browsers drop tabs and newlines inside URLs (`/\t/evil.example`).
const hasControl = (text: string) =>
  [...text].some((c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 || (code >= 0x7f && code <= 0x9f);
  });
const BASE = 'http://same.invalid';

/** A same-site path to follow, or null. */
export function safeNextPath(next: unknown): string | null {
  if (typeof next !== 'string' || next.length === 0 || next.length > MAX_LENGTH) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(next);
  } catch {
    return null;
  }
  // Checked as written and once decoded, so an encoded `%2F%2F` or `%5C` cannot become one later.
  for (const form of [next, decoded]) {
    if (!form.startsWith('/') || form.startsWith('//') || form.includes('\\') || hasControl(form)) return null;
  }
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  // Back to the sign-in page would only ask again.
  if (url.pathname === '/login' || url.pathname.startsWith('/login/')) return null;
  return next;
}

/** Where to go once signed in: `next` when it is safe, else home. */
export const afterSignIn = (next: unknown): string => safeNextPath(next) ?? AFTER_SIGN_IN;

/** `page` (the sign-in or sign-up page) carrying `next` when it is safe, else plain. */
export function withNext(page: string, next?: unknown): string {
  const back = next ? safeNextPath(next) : null;
  return back ? `${page}?${NEXT_PARAM}=${encodeURIComponent(back)}` : page;
}

/** The sign-in page that returns to `next` (a path the visitor was sent away from), or the plain one. */
export const loginPath = (next?: unknown): string => withNext('/login', next);

/** Paths the server answers itself, not Next.js's router: reached by a full page load. */
export const isServerPath = (path: string): boolean => path.startsWith('/oauth/') || path.startsWith('/users/');
