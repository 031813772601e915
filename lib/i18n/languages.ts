/**
 * The languages the app speaks (issue 75). English is the source: its catalogue holds the product
 * spec's texts exactly; the others translate it key for key (lib/i18n/messages/).
 */
export const LANGUAGES = ['en', 'es', 'de', 'fr', 'ja', 'ar'] as const;

export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * The languages a browser's `Accept-Language` may choose: those whose catalogue covers the whole
 * interface. Until a catalogue does, its pages would mix it with English (and Arabic's mirrored
 * layout would hold English sentences): English is better. A person may still choose any language
 * (the account's setting, the `lang` cookie). A language joins once its pages are translated: all six
 * are, the pages a visitor opens first included (issue 75), and the 500 page by its own script.
 */
export const OFFERED_LANGUAGES: readonly Language[] = ['en', 'es', 'de', 'fr', 'ja', 'ar'];

/** Each language named in itself, as a picker lists them. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  es: 'Español',
  de: 'Deutsch',
  fr: 'Français',
  ja: '日本語',
  ar: 'العربية',
};

/** The cookie that keeps a visitor's choice (and a member's, for the pages rendered before the session is read). */
export const LANGUAGE_COOKIE = 'lang';

export type Direction = 'ltr' | 'rtl';

export const directionOf = (language: Language): Direction => (language === 'ar' ? 'rtl' : 'ltr');

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
