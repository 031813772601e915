/**
 * The 500 page in the reader's language (issue 75). Next.js makes it once at build time (it may not
 * render per request: it is what is shown when rendering failed), in English; its props also carry,
 * for each other language, the few texts the page shows before anything is asked of the server (the
 * shell's and the failure's). The page's own script picks the language as the server would (the
 * `lang` cookie, else the browser's languages), sets `<html lang dir>` and those texts before the
 * first paint, and the app's first render reads that choice, so hydration finds the texts it wrote.
 * The offline shell does the same without React (server/pwa/offlineShell.ts).
 */
import { useMemo } from 'react';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES, directionOf, isLanguage, type Language } from './languages';
import type { CompiledMessages, PageIntl } from './pageIntlTypes';

/** The namespaces (whole, or one part) the page carries in the other languages. */
export const SERVER_ERROR_TEXTS = { shell: null, pages: 'serverError' } as const;

/** The other languages' texts, by language (the props' `otherLanguages`). */
export type OtherLanguages = Partial<Record<Language, CompiledMessages>>;

// The texts the page's HTML holds before the session is read: the skip link, the title, the lead, the button.
const SHOWN: [selector: string, namespace: string, ...path: string[]][] = [
  ['.skip-link', 'shell', 'skipToContent'],
  ['#content h1', 'pages', 'serverError', 'title'],
  ['#content .lead', 'pages', 'serverError', 'lead'],
  ['#content button', 'pages', 'serverError', 'tryAgain'],
];
const RTL = LANGUAGES.filter((language) => directionOf(language) === 'rtl');

/**
 * Run where it stands, after `__NEXT_DATA__` and before Next's deferred scripts. Written out at build
 * time, so the policy allows it by its hash (server/http/contentSecurity.ts). The first language
 * the page has, English included, wins; the title is Seo's (`title · Posts`).
 */
export const serverErrorLanguageScript =
  `(function(){var o=JSON.parse(document.getElementById('__NEXT_DATA__').textContent).props.pageProps.otherLanguages||{},` +
  `c=/(?:^|; )${LANGUAGE_COOKIE}=([^;]*)/.exec(document.cookie),w=(c?[c[1]]:[]).concat(navigator.languages||[]),l,i,k,t,e,h=document.documentElement;` +
  `for(i=0;i<w.length&&!l;i++){k=String(w[i]).toLowerCase().split('-')[0];if(k==='${DEFAULT_LANGUAGE}')return;if({}.hasOwnProperty.call(o,k))l=k}` +
  `if(!l)return;t=o[l];h.lang=l;if(${JSON.stringify(RTL)}.indexOf(l)>=0)h.dir='rtl';` +
  `document.title=t.pages.serverError.title+' \\u00b7 Posts';` +
  `${JSON.stringify(SHOWN)}.forEach(function(s){var v=t,j;for(j=1;j<s.length;j++)v=v[s[j]];e=document.querySelector(s[0]);if(e&&typeof v==='string')e.textContent=v})})()`;

/** `base` with `over`'s messages in place of its own, namespace by namespace. */
function merged(base: CompiledMessages, over: CompiledMessages): CompiledMessages {
  const out: CompiledMessages = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const mine = base[key];
    const nested = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
    out[key] = nested(mine) && nested(value) ? merged(mine as CompiledMessages, value as CompiledMessages) : value;
  }
  return out;
}

/**
 * The page's language: its own, or, on the 500 page in the browser, the one its script chose (the
 * rest of its texts, a member's navbar's search for one, stay English: the page carries no more).
 */
export function useServerErrorLanguage(intl: PageIntl | undefined, others: OtherLanguages | undefined) {
  return useMemo(() => {
    if (!intl || !others || typeof document === 'undefined') return intl;
    const language = document.documentElement.lang;
    const texts = isLanguage(language) ? others[language] : undefined;
    return texts && isLanguage(language) ? { language, messages: merged(intl.messages, texts) } : intl;
  }, [intl, others]);
}
