import { languageCookie } from '../../../lib/i18n/languageCookie';
import type { Language } from '../../../lib/i18n/languages';

/**
 * Keeps the choice in this browser (the `lang` cookie, lib/i18n/choose.ts): a visitor's only record
 * of it, and for a member the language of the pages rendered without the session's user (the data
 * requests of client-side navigations).
 */
export function rememberLanguage(language: Language): void {
  document.cookie = languageCookie(language);
}
