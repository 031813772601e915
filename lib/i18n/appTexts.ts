/**
 * The texts of code that runs outside React's render (thunks raising toasts, form schemas): the
 * language and messages the app renders in now, set by `useTextsOf` on each page (pages/_app.tsx).
 * Components use `useTranslations`; this is for the rest. Keys are whole (`posts.toasts.liked`), so
 * the catalogue test finds them (`textOf('…')`).
 */
import { createTranslator } from 'use-intl/core';
import { DEFAULT_LANGUAGE } from './languages';
import type { PageIntl } from './pageIntlTypes';

type Values = Record<string, string | number | Date>;
type Translate = (key: string, values?: Values) => string;

let shown: PageIntl | null = null;
let translate: Translate = (key) => key;

/** Makes `intl` the language of `textOf` (a new page's, or a changed choice). */
export function setAppTexts(intl: PageIntl): void {
  if (intl === shown) return;
  shown = intl;
  const translator = createTranslator({
    locale: intl.language ?? DEFAULT_LANGUAGE,
    messages: intl.messages as never,
    onError: () => {},
  });
  translate = (key, values) => (translator as unknown as Translate)(key, values);
}

/** A message of the current language by its whole key, with its ICU values. */
export const textOf = (key: string, values?: Values): string => translate(key, values);
