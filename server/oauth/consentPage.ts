/**
 * The consent page of `GET /oauth/authorize`: plain HTML rendered here (no script), in the dark
 * gray theme's colours, with its own Content-Security-Policy (the form may send the browser on to the
 * app's redirect URI, which `form-action` must allow: Chromium applies it to the redirect too). The
 * form carries its CSRF token (consentToken.ts); the pages that end a request link to the site.
 * Each page is in the person's language (namespace `oauth`; the server's own refusals stay English).
 */
import { createHash } from 'node:crypto';
import { DARK_GRAY } from '../rendering/darkGray';
import { CONSENT_TOKEN_FIELD } from './consentToken';
import { OOB_REDIRECT } from './redirectUris';
import { escapeHtml } from '../rendering/escapeHtml';
import { directionOf, type Language } from '../../lib/i18n/languages';
import { type ServerTextOf, serverTextsIn } from '../../lib/i18n/serverTexts';

const p = DARK_GRAY;

const STYLE = `body{margin:0;font:16px/1.5 system-ui,sans-serif;background:${p.bg};color:${p.text};display:flex;justify-content:center;padding:48px 16px}
main{max-width:440px;width:100%;background:${p.surface};border:1px solid ${p.border};border-radius:12px;padding:24px}
h1{font-size:1.4rem;margin:0 0 8px}p{color:${p.textMuted}}ul{padding-inline-start:20px}code{word-break:break-all;font-size:1.1rem;color:${p.text}}
.row{display:flex;gap:12px;margin-top:24px}button{flex:1;font:inherit;padding:10px;border-radius:8px;border:1px solid ${p.border};cursor:pointer;background:${p.surfaceRaised};color:${p.text}}
button.primary{background:${p.accent};color:${p.onAccent};border-color:${p.accent}}button:focus-visible,a:focus-visible{outline:3px solid ${p.focus};outline-offset:2px}
a{color:${p.accent}}`;
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** What each scope lets the app do, in words; an unknown scope by its name. */
function scopeText(textOf: ServerTextOf, scope: string): string {
  switch (scope) {
    case 'read':
      return textOf('oauth.scopes.read');
    case 'write':
      return textOf('oauth.scopes.write');
    case 'follow':
      return textOf('oauth.scopes.follow');
    case 'push':
      return textOf('oauth.scopes.push');
    // Admins only: said plainly, since the person grants what their role allows (docs/api-decisions.md).
    case 'admin:read':
      return textOf('oauth.scopes.adminRead');
    case 'admin:write':
      return textOf('oauth.scopes.adminWrite');
    default:
      return scope.replace(':', ': ');
  }
}

function page(language: Language, title: string, body: string): string {
  const dir = directionOf(language) === 'rtl' ? ' dir="rtl"' : '';
  return `<!doctype html><html lang="${language}"${dir}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · Posts</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** The link from a page that ends here to the site itself. */
const wayOn = (textOf: ServerTextOf) => `<p><a href="/">${escapeHtml(textOf('oauth.goToPosts'))}</a></p>`;

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
  language: Language;
  appName: string;
  website: string | null;
  username: string;
  scopes: string[];
  /** The authorization request's own fields, sent back with the decision. */
  fields: Record<string, string>;
  /** The form's CSRF token (consentToken.ts). */
  token: string;
}): string {
  const textOf = serverTextsIn(options.language);
  const hidden = Object.entries({ ...options.fields, [CONSENT_TOKEN_FIELD]: options.token })
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const site = options.website ? ` (<span dir="auto">${escapeHtml(options.website)}</span>)` : '';
  // The values are escaped before they go in; the message's own text is ours, its tags made bold.
  const asks = textOf.markup('oauth.asks', {
    app: `<bdi>${escapeHtml(options.appName)}</bdi>`,
    site,
    username: escapeHtml(options.username),
    b: (chunks) => `<strong>${chunks}</strong>`,
  });
  return page(
    options.language,
    textOf('oauth.authorizeTitle'),
    `<h1>${escapeHtml(textOf('oauth.allow', { app: options.appName }))}</h1>
<p>${asks}</p>
<ul>${options.scopes.map((s) => `<li>${escapeHtml(scopeText(textOf, s))}</li>`).join('')}</ul>
<p>${escapeHtml(textOf('oauth.revoke'))}</p>
<form method="post" action="/oauth/authorize">${hidden}<div class="row">
<button type="submit" name="decision" value="deny">${escapeHtml(textOf('oauth.deny'))}</button>
<button type="submit" name="decision" value="approve" class="primary">${escapeHtml(textOf('oauth.authorize'))}</button></div></form>`,
  );
}

/** The code for an app without a redirect (`urn:ietf:wg:oauth:2.0:oob`), to copy into it. */
export function codePage(language: Language, appName: string, code: string): string {
  const textOf = serverTextsIn(language);
  return page(
    language,
    textOf('oauth.codeTitle'),
    `<h1>${escapeHtml(textOf('oauth.codeTitle'))}</h1><p>${escapeHtml(textOf('oauth.codeLead', { app: appName }))}</p><p><code id="code">${escapeHtml(code)}</code></p>`,
  );
}

/** A refused request: what went wrong (the server's words, in English), and what to do about it. */
export function errorPage(language: Language, message: string): string {
  const textOf = serverTextsIn(language);
  return page(
    language,
    textOf('oauth.failedTitle'),
    `<h1>${escapeHtml(textOf('oauth.cannotAuthorize'))}</h1><p lang="en" dir="ltr">${escapeHtml(message)}</p><p>${escapeHtml(textOf('oauth.startAgainAdvice'))}</p>${wayOn(textOf)}`,
  );
}

/** A consent form that did not come from this session's consent page (its token is missing or wrong). */
export function staleFormPage(language: Language): string {
  const textOf = serverTextsIn(language);
  return page(
    language,
    textOf('oauth.failedTitle'),
    `<h1>${escapeHtml(textOf('oauth.expired'))}</h1><p>${escapeHtml(textOf('oauth.expiredLead'))}</p><p>${escapeHtml(textOf('oauth.startAgain'))}</p>${wayOn(textOf)}`,
  );
}

/** The person denied an app that has no redirect (`urn:ietf:wg:oauth:2.0:oob`). */
export function deniedPage(language: Language, appName: string): string {
  const textOf = serverTextsIn(language);
  return page(
    language,
    textOf('oauth.deniedTitle'),
    `<h1>${escapeHtml(textOf('oauth.deniedTitle'))}</h1><p>${escapeHtml(textOf('oauth.deniedLead', { app: appName }))}</p>${wayOn(textOf)}`,
  );
}
