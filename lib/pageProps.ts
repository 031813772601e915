/**
 * The pages' data functions. Only getServerSideProps/getStaticProps import this module, so Next.js
 * leaves it (and the ICU compiler behind the messages) out of the browser's code.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { firstLoadOf, type PrivatePageProps } from './firstLoad';
import { languageCookie } from './i18n/languageCookie';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, OFFERED_LANGUAGES } from './i18n/languages';
import { cookieValue, pageIntl, requestIntl, staticIntl } from './i18n/pageIntl';
import type { CompiledMessages, PageIntl } from './i18n/pageIntlTypes';
import { SERVER_ERROR_TEXTS, type OtherLanguages } from './i18n/serverErrorLanguage';

/**
 * getServerSideProps of the private pages. The server has already decided the session (and
 * redirected visitors); this only hands its reads to the page, with the page's language. Data
 * requests of client-side navigations (`/_next/data/…`) carry no reads: the store already holds the
 * session and the page reads its own data, as before.
 */
export async function privatePageProps({
  req,
  res,
}: {
  req: IncomingMessage;
  res?: ServerResponse;
}): Promise<{ props: PrivatePageProps }> {
  const account = firstLoadOf(req)?.user.language;
  if (res) keepLanguageCookie(req, res, account);
  return { props: { firstLoad: firstLoadOf(req), intl: requestIntl(req, account) } };
}

/**
 * A member's full page load sets the `lang` cookie to their account's language when it differs: the
 * data requests of the client-side navigations that follow carry no session read, so the cookie is
 * what keeps those pages in the account's language (signed in on another device, or changed there).
 */
function keepLanguageCookie(req: IncomingMessage, res: ServerResponse, account: string | null | undefined): void {
  if (!isLanguage(account)) return;
  const cookie = req.headers.cookie;
  if (cookieValue(typeof cookie === 'string' ? cookie : undefined, LANGUAGE_COOKIE) === account) return;
  res.appendHeader('Set-Cookie', languageCookie(account));
}

/**
 * getServerSideProps of the pages a visitor opens (the landing page, sign-in, sign-up): rendered per
 * request in the visitor's language (the `lang` cookie, else `Accept-Language`), as each is often the
 * first page a person sees (issue 75).
 */
export async function publicPageProps({ req }: { req: IncomingMessage }): Promise<{ props: { intl: PageIntl } }> {
  return { props: { intl: requestIntl(req) } };
}

/** getServerSideProps of the not-found page (pages/notFound.tsx): a 404 in the reader's language. */
export async function notFoundPageProps({
  req,
  res,
}: {
  req: IncomingMessage;
  res: ServerResponse;
}): Promise<{ props: { intl: PageIntl } }> {
  res.statusCode = 404;
  return publicPageProps({ req });
}

/**
 * getStaticProps of the pages made once at build time (404 and 500): English, the language they
 * are prerendered in (docs/api-decisions.md, issue 75).
 */
export async function staticPageProps(): Promise<{ props: { intl: PageIntl } }> {
  return { props: { intl: staticIntl() } };
}

/**
 * getStaticProps of the 500 page: English, and the texts it shows first in every other language,
 * which its script puts in place (lib/i18n/serverErrorLanguage.ts).
 */
export async function serverErrorPageProps(): Promise<{ props: { intl: PageIntl; otherLanguages: OtherLanguages } }> {
  const otherLanguages: OtherLanguages = {};
  for (const language of OFFERED_LANGUAGES) {
    if (language === DEFAULT_LANGUAGE) continue;
    const { messages } = pageIntl(language);
    const texts: CompiledMessages = {};
    for (const [namespace, part] of Object.entries(SERVER_ERROR_TEXTS)) {
      const all = messages[namespace] as CompiledMessages;
      texts[namespace] = part ? { [part]: all[part] } : all;
    }
    otherLanguages[language] = texts;
  }
  return { props: { intl: staticIntl(), otherLanguages } };
}
