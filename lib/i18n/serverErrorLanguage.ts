/**
 * The 500 page in the reader's language (issue 75). Next.js makes it once at build time (it may not
 * render per request: it is what is shown when rendering failed), in English; its props also carry,
 * for each other language, the few texts the page shows before anything is asked of the server (the
 * shell's and the failure's). The page's own script picks the language as the server would (the
 * `lang` cookie, else the browser's languages), sets `<html lang dir>` and those texts before the
 * first paint, and the app's first render reads that choice, so hydration finds the texts it wrote.
 * The offline shell does the same without React (server/pwa/offlineShell.ts). The script itself is
 * `serverErrorScript.ts`: only the document imports it, so it stays out of every page's JavaScript.
 */
import { useMemo } from 'react';
import { isLanguage, type Language } from './languages';
import type { CompiledMessages, PageIntl } from './pageIntlTypes';

/** The namespaces (whole, or one part) the page carries in the other languages. */
export const SERVER_ERROR_TEXTS = { shell: null, pages: 'serverError' } as const;

/** The other languages' texts, by language (the props' `otherLanguages`). */
export type OtherLanguages = Partial<Record<Language, CompiledMessages>>;

/** `base` with `over`'s messages in place of its own, namespace by namespace. */
function merged(base: CompiledMessages, over: CompiledMessages): CompiledMessages {
  const out: CompiledMessages = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const mine = base[key];
    const nested = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
    out[key] = nested(mine) && nested(value) ? merged(mine as CompiledMessages, value as CompiledMessages) : value;
  }
  return out;
}

/**
 * The page's language: its own, or, on the 500 page in the browser, the one its script chose (the
 * rest of its texts, a member's navbar's search for one, stay English: the page carries no more).
 */
export function useServerErrorLanguage(intl: PageIntl | undefined, others: OtherLanguages | undefined) {
  return useMemo(() => {
    if (!intl || !others || typeof document === 'undefined') return intl;
    const language = document.documentElement.lang;
    const texts = isLanguage(language) ? others[language] : undefined;
    return texts && isLanguage(language) ? { language, messages: merged(intl.messages, texts) } : intl;
  }, [intl, others]);
}
