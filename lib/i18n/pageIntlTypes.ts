import type { Language } from './languages';

/** A catalogue compiled by icu-minify (what use-intl's format-only runtime formats). */
export interface CompiledMessages {
  [key: string]: unknown;
}

/** The `intl` prop of a page: its language and that language's messages. */
export interface PageIntl {
  language: Language;
  messages: CompiledMessages;
}
