/**
 * The offline shell (issue 74; issue 68, defect #24): what the service worker shows for a page
 * loaded without a network, instead of the browser's error page. The same for everyone (the
 * worker precaches it), so nothing personal: the app's bar, "You are offline", a way to try again,
 * and the page itself once the server answers again. In the theme the person chose (kept in this
 * browser), from the server's copies of the themes' colours (the server may not import the client's
 * themes), and in their language: English in the HTML, the others beside it, chosen by its script
 * as the server chooses (the `lang` cookie, else the browser's languages).
 */
import { createHash } from 'node:crypto';
import {
  DEFAULT_LANGUAGE,
  directionOf,
  LANGUAGE_COOKIE,
  OFFERED_LANGUAGES,
  type Language,
} from '../../lib/i18n/languages';
import { serverTextsIn } from '../../lib/i18n/serverTexts';
import { DEFAULT_THEME, THEMES } from '../../lib/limits';
import { applyStoredThemeScript } from '../../lib/storedTheme';
import { escapeHtml as e } from '../rendering/escapeHtml';
import { THEME_COLOURS, type ServerColours } from '../rendering/themeColours';

const variables = (c: ServerColours) =>
  `--bg:${c.bg};--border:${c.border};--text:${c.text};--muted:${c.textMuted};--accent:${c.accent};--on-accent:${c.onAccent};--focus:${c.focus}`;

const STYLE =
  THEMES.map((name) => `html[data-theme=${name}]{${variables(THEME_COLOURS[name])}}`).join('') +
  `body{margin:0;min-height:100vh;font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;background:var(--bg);color:var(--text)}
header{display:flex;align-items:center;gap:10px;height:60px;padding:0 16px;border-bottom:1px solid var(--border)}
header strong{font-size:18px}main{max-width:520px;margin:0 auto;padding:64px 20px;text-align:center}
.logo{color:var(--on-accent)}.logo .tile{fill:var(--accent)}main svg{color:var(--muted)}
h1{font-size:24px;margin:16px 0 8px}p{color:var(--muted);margin:0 0 24px}
.retry{display:inline-flex;align-items:center;min-height:44px;padding:0 20px;border-radius:22px;background:var(--accent);color:var(--on-accent);font-weight:600;text-decoration:none}
.retry:focus-visible{outline:3px solid var(--focus);outline-offset:2px}`;

// Back online, the page the person wanted, without a press: once the server answers its address
// (the connection may come back before the route to the server does), asked again every 5 s.
const RELOAD_WHEN_BACK = `(function(){var t;function w(){clearTimeout(t);fetch(location.href,{method:'HEAD',cache:'no-store'}).then(function(){location.reload()},function(){if(navigator.onLine)t=setTimeout(w,5e3)})}addEventListener('online',w)})();`;
// The person's language, once the texts beside the HTML are parsed: the cookie, else the browser's first spoken.
const TRANSLATE = `document.addEventListener('DOMContentLoaded',function(){var all=JSON.parse(document.getElementById('texts').textContent),c=/(?:^|; )${LANGUAGE_COOKIE}=([^;]*)/.exec(document.cookie),w=(c?[c[1]]:[]).concat(navigator.languages||[]),l,i,k,t,h=document.documentElement;for(i=0;i<w.length&&!l;i++){k=String(w[i]).toLowerCase().split('-')[0];if(all[k])l=k}if(!l||l===h.lang)return;t=all[l];h.lang=l;if(t.dir==='rtl')h.dir='rtl';document.title=t.heading;document.querySelector('h1').textContent=t.title;document.querySelector('main p').textContent=t.lead;document.querySelector('.retry').textContent=t.tryAgain})`;
const SCRIPT = applyStoredThemeScript + RELOAD_WHEN_BACK + TRANSLATE;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Its own policy: its one script and stylesheet, nothing fetched but its own address. */
export const OFFLINE_CSP = `default-src 'none'; script-src ${hash(SCRIPT)}; style-src ${hash(STYLE)}; connect-src 'self'; img-src 'self'; manifest-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;

const LOGO = `<svg class="logo" width="32" height="32" viewBox="0 0 32 32" aria-hidden="true"><rect class="tile" width="32" height="32" rx="8"/><rect x="7" y="7" width="18" height="18" rx="4" fill="none" stroke="currentColor" stroke-width="2.5"/><circle cx="13" cy="13" r="2.4" fill="currentColor"/><path d="M8.5 22.5l5.5-6 4 4 3-3 3.5 4" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linejoin="round"/></svg>`;
const NO_SIGNAL = `<svg width="56" height="56" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" aria-hidden="true"><path d="M2 8.5a15 15 0 0 1 20 0M5 12a10 10 0 0 1 14 0M8.5 15.5a5 5 0 0 1 7 0"/><circle cx="12" cy="19" r="1"/><path d="M3 3l18 18"/></svg>`;

/** The shell's texts in one language. */
export function offlineTexts(language: Language, siteName: string) {
  const textOf = serverTextsIn(language);
  const title = textOf('offline.title');
  return {
    title,
    heading: `${title} · ${siteName}`,
    lead: textOf('offline.lead', { siteName }),
    tryAgain: textOf('offline.tryAgain'),
    dir: directionOf(language),
  };
}

export function offlineShellHtml(siteName: string): string {
  const all = Object.fromEntries(OFFERED_LANGUAGES.map((language) => [language, offlineTexts(language, siteName)]));
  const en = all[DEFAULT_LANGUAGE];
  // JSON inside a script element: `<` escaped, so no text can close it.
  const texts = JSON.stringify(all).replace(/</g, '\\u003c');
  return (
    `<!doctype html><html lang="${DEFAULT_LANGUAGE}" data-theme="${DEFAULT_THEME}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(en.heading)}</title>` +
    `<meta name="robots" content="noindex"><meta name="theme-color" content="${THEME_COLOURS[DEFAULT_THEME].bg}">` +
    `<script>${SCRIPT}</script><style>${STYLE}</style></head><body>` +
    `<header>${LOGO}<strong>${e(siteName)}</strong></header>` +
    `<main>${NO_SIGNAL}<h1>${e(en.title)}</h1>` +
    `<p>${e(en.lead)}</p>` +
    // An empty href is the page's own address: the page the person asked for, loaded again.
    `<a class="retry" href="">${e(en.tryAgain)}</a></main>` +
    `<script type="application/json" id="texts">${texts}</script></body></html>`
  );
}
