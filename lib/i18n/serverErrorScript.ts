/**
 * The 500 page's script that puts the reader's language in it before the first paint
 * (`serverErrorLanguage.ts` says how): apart from the hook, because only `_document` (on the server)
 * needs it, and every page's JavaScript carries what `_app` imports.
 */
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES, directionOf } from './languages';

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
