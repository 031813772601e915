/**
 * The consent page of `GET /oauth/authorize`: plain HTML rendered here (no script), in the dark
 * gray theme's colours, with its own Content-Security-Policy (the form may send the browser on to the
 * app's redirect URI, which `form-action` must allow: Chromium applies it to the redirect too). The
 * form carries its CSRF token (consentToken.ts); the pages that end a request link to the site.
 */
import { createHash } from 'node:crypto';
import { DARK_GRAY } from '../rendering/darkGray';
import { CONSENT_TOKEN_FIELD } from './consentToken';
import { OOB_REDIRECT } from './redirectUris';
import { escapeHtml } from '../rendering/escapeHtml';

const p = DARK_GRAY;

const STYLE = `body{margin:0;font:16px/1.5 system-ui,sans-serif;background:${p.bg};color:${p.text};display:flex;justify-content:center;padding:48px 16px}
main{max-width:440px;width:100%;background:${p.surface};border:1px solid ${p.border};border-radius:12px;padding:24px}
h1{font-size:1.4rem;margin:0 0 8px}p{color:${p.textMuted}}ul{padding-left:20px}code{word-break:break-all;font-size:1.1rem;color:${p.text}}
.row{display:flex;gap:12px;margin-top:24px}button{flex:1;font:inherit;padding:10px;border-radius:8px;border:1px solid ${p.border};cursor:pointer;background:${p.surfaceRaised};color:${p.text}}
button.primary{background:${p.accent};color:${p.onAccent};border-color:${p.accent}}button:focus-visible,a:focus-visible{outline:3px solid ${p.focus};outline-offset:2px}
a{color:${p.accent}}`;
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** What each scope lets the app do, in words. */
const SCOPE_WORDS: Record<string, string> = {
  read: 'read your posts, feeds, notifications, profile and lists of people',
  write: 'post, comment, like, follow and change your profile for you',
  follow: 'follow, block and mute people for you',
  push: 'receive your notifications',
  // Admins only: said plainly, since the person grants what their role allows (docs/api-decisions.md).
  'admin:read': 'read what you see as an admin',
  'admin:write': "act as an admin for you: delete other people's posts and comments",
};
const scopeText = (scope: string) => SCOPE_WORDS[scope] ?? scope.replace(':', ': ');

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · Posts</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** The policy of a consent page whose form may redirect to `redirectUri`. */
export function consentCsp(redirectUri: string | null): string {
  let target = '';
  if (redirectUri && redirectUri !== OOB_REDIRECT) {
    const url = new URL(redirectUri);
    target = url.protocol === 'http:' || url.protocol === 'https:' ? ` ${url.origin}` : ` ${url.protocol}`;
  }
  return `default-src 'none'; style-src ${STYLE_HASH}; form-action 'self'${target}; frame-ancestors 'none'; base-uri 'none'`;
}

export function consentPage(options: {
  appName: string;
  website: string | null;
  username: string;
  scopes: string[];
  /** The authorization request's own fields, sent back with the decision. */
  fields: Record<string, string>;
  /** The form's CSRF token (consentToken.ts). */
  token: string;
}): string {
  const hidden = Object.entries({ ...options.fields, [CONSENT_TOKEN_FIELD]: options.token })
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const site = options.website ? ` (<span>${escapeHtml(options.website)}</span>)` : '';
  return page(
    'Authorize app',
    `<h1>Allow ${escapeHtml(options.appName)} to use your account?</h1>
<p><strong>${escapeHtml(options.appName)}</strong>${site} asks to act as <strong>@${escapeHtml(options.username)}</strong>. It will be able to:</p>
<ul>${options.scopes.map((s) => `<li>${escapeHtml(scopeText(s))}</li>`).join('')}</ul>
<p>You can revoke its access at any time in Settings.</p>
<form method="post" action="/oauth/authorize">${hidden}<div class="row">
<button type="submit" name="decision" value="deny">Deny</button>
<button type="submit" name="decision" value="approve" class="primary">Authorize</button></div></form>`,
  );
}

/** The code for an app without a redirect (`urn:ietf:wg:oauth:2.0:oob`), to copy into it. */
export function codePage(appName: string, code: string): string {
  return page(
    'Authorization code',
    `<h1>Authorization code</h1><p>Copy this code and paste it into ${escapeHtml(appName)}:</p><p><code id="code">${escapeHtml(code)}</code></p>`,
  );
}

/** Where a person goes from a page that ends here: the site itself. */
const WAY_ON = `<p><a href="/">Go to Posts</a></p>`;

/** A refused request: what went wrong, and what to do about it. */
export function errorPage(message: string): string {
  return page(
    'Authorization failed',
    `<h1>This app cannot be authorized</h1><p>${escapeHtml(message)}</p><p>Go back to the app and start signing in again. If this keeps happening, the app may be set up wrongly: tell its makers.</p>${WAY_ON}`,
  );
}

/** A consent form that did not come from this session's consent page (its token is missing or wrong). */
export function staleFormPage(): string {
  return page(
    'Authorization failed',
    `<h1>This form has expired</h1><p>It was not sent from the consent page of your current session, so nothing was authorized.</p><p>Go back to the app and start signing in again.</p>${WAY_ON}`,
  );
}

/** The person denied an app that has no redirect (`urn:ietf:wg:oauth:2.0:oob`). */
export function deniedPage(appName: string): string {
  return page(
    'Access denied',
    `<h1>Access denied</h1><p>You did not allow ${escapeHtml(appName)} to use your account.</p>${WAY_ON}`,
  );
}
