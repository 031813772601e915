/**
 * What a page's props carry for its language: the language and its messages, compiled on the
 * server (icu-minify), so the browser formats them with use-intl's format-only runtime (next.config.js
 * aliases `use-intl/format-message` to it) and ships no ICU parser, and each page only its language.
 * Imported by getServerSideProps/getStaticProps only: Next.js leaves it out of the browser's code.
 */
import compile from 'icu-minify/compile';
import { cataloguesOf, type Messages } from './catalogues';
import { chooseLanguage } from './choose';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, type Language } from './languages';
import type { CompiledMessages, PageIntl } from './pageIntlTypes';

const compiled = new Map<Language, CompiledMessages>();

function compileAll(messages: Messages): CompiledMessages {
  const out: CompiledMessages = {};
  for (const [key, value] of Object.entries(messages))
    out[key] = typeof value === 'string' ? compile(value) : compileAll(value);
  return out;
}

/** Namespaces only the server writes (the mails, the OAuth consent page, the offline shell): no page's props carry them. */
const SERVER_ONLY = new Set(['mails', 'oauth', 'offline']);

/** A language's messages, compiled once per process (the catalogues change only with a deploy). */
export function pageIntl(language: Language): PageIntl {
  let messages = compiled.get(language);
  if (!messages) {
    const pages = Object.entries(cataloguesOf()[language]).filter(([namespace]) => !SERVER_ONLY.has(namespace));
    compiled.set(language, (messages = compileAll(Object.fromEntries(pages))));
  }
  return { language, messages };
}

/** The value of one cookie of a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
}

/** The language of a page rendered for this request (the account's setting first, when known). */
export function requestIntl(
  req: { headers: Record<string, string | string[] | undefined> },
  account?: string | null,
): PageIntl {
  const acceptLanguage = req.headers['accept-language'];
  const cookie = req.headers.cookie;
  return pageIntl(
    chooseLanguage({
      account,
      cookie: cookieValue(typeof cookie === 'string' ? cookie : undefined, LANGUAGE_COOKIE),
      acceptLanguage: typeof acceptLanguage === 'string' ? acceptLanguage : null,
    }),
  );
}

/** The pages made once at build time (static): English, the language they are prerendered in. */
export const staticIntl = (): PageIntl => pageIntl(DEFAULT_LANGUAGE);
