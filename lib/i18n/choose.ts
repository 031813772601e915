import { DEFAULT_LANGUAGE, isLanguage, type Language, OFFERED_LANGUAGES } from './languages';

/** What a request tells of the language to use, strongest first. */
export interface LanguageHints {
  /** The account's setting (null: never chosen). */
  account?: string | null;
  /** The `lang` cookie. */
  cookie?: string | null;
  /** The `Accept-Language` header. */
  acceptLanguage?: string | null;
}

/**
 * The language of a page: the account's setting, else the cookie, else the first language of
 * `Accept-Language` among those `offered` (by q-value, `es-MX` counting as `es`), else English. A
 * value the app does not speak (an old cookie, a language dropped) counts as none.
 */
export function chooseLanguage(
  { account, cookie, acceptLanguage }: LanguageHints,
  offered: readonly Language[] = OFFERED_LANGUAGES,
): Language {
  if (isLanguage(account)) return account;
  if (isLanguage(cookie)) return cookie;
  return fromAcceptLanguage(acceptLanguage, offered) ?? DEFAULT_LANGUAGE;
}

/** The most wanted language of an `Accept-Language` header among those `offered`; null if none. */
export function fromAcceptLanguage(
  header: string | null | undefined,
  offered: readonly Language[] = OFFERED_LANGUAGES,
): Language | null {
  if (!header) return null;
  const wanted = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      return {
        language: tag.trim().toLowerCase().split('-')[0],
        quality: Number.isFinite(quality) ? quality : 0,
        index,
      };
    })
    .filter((entry) => entry.quality > 0)
    // The header's order breaks ties, as RFC 9110 leaves it to the server.
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return wanted.map((entry) => entry.language).find((l): l is Language => isLanguage(l) && offered.includes(l)) ?? null;
}
