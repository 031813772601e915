/**
 * Texts the server writes itself (mails), in a person's language. Server only: it reads the
 * catalogues from disk and formats their ICU source (use-intl's full formatter, not the pages'
 * format-only one). Keys are whole (`mails.verifyEmail.subject`), as `textOf`'s are, so the catalogue
 * test finds them: name the function it returns `textOf`.
 */
import { createTranslator } from 'use-intl/core';
import { cataloguesOf } from './catalogues';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from './languages';

type Values = Record<string, string | number | Date>;
export type ServerTextOf = (key: string, values?: Values) => string;

const translators = new Map<Language, ServerTextOf>();

/**
 * The messages of `language` (an account's setting: English when null or no longer spoken). One
 * translator per language and process, so each message is parsed once.
 */
export function serverTextsIn(language: string | null | undefined): ServerTextOf {
  const locale = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  let textOf = translators.get(locale);
  if (!textOf) {
    const translator = createTranslator({ locale, messages: cataloguesOf()[locale] as never });
    textOf = (key, values) => (translator as unknown as ServerTextOf)(key, values);
    translators.set(locale, textOf);
  }
  return textOf;
}
