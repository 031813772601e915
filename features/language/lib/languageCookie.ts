import { LANGUAGE_COOKIE, type Language } from '../../../lib/i18n/languages';

/** A year: the choice outlives the session, as the theme's does. */
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * Keeps the choice in this browser (the `lang` cookie, lib/i18n/choose.ts): a visitor's only record
 * of it, and for a member the language of the pages rendered before the session is read.
 */
export function rememberLanguage(language: Language): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax${secure}`;
}
