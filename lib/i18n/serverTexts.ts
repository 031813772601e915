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
/** A message as text; `markup`: one whose tags (`<b>…</b>`) the caller turns into its own HTML. */
export type ServerTextOf = ((key: string, values?: Values) => string) & {
  markup: (key: string, values: Record<string, string | number | ((chunks: string) => string)>) => string;
};

const translators = new Map<Language, ServerTextOf>();

/**
 * The messages of `language` (an account's setting: English when null or no longer spoken). One
 * translator per language and process, so each message is parsed once.
 */
export function serverTextsIn(language: string | null | undefined): ServerTextOf {
  const locale = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  let textOf = translators.get(locale);
  if (!textOf) {
    const translator = createTranslator({
      locale,
      messages: cataloguesOf()[locale] as never,
    }) as unknown as ServerTextOf;
    textOf = Object.assign((key: string, values?: Values) => translator(key, values), {
      markup: (key: string, values: Parameters<ServerTextOf['markup']>[1]) => translator.markup(key, values),
    });
    translators.set(locale, textOf);
  }
  return textOf;
}
