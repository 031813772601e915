/**
 * The `lang` cookie (lib/i18n/choose.ts): set by the picker in the browser, and by the server when
 * a member's full page load finds it out of step with their account (lib/pageProps.ts).
 */
import { LANGUAGE_COOKIE, type Language } from './languages';

/** A year: the choice outlives the session. */
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The cookie as `document.cookie` and `Set-Cookie` take it; a preference, readable by the page. */
export const languageCookie = (language: Language): string =>
  `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax`;
