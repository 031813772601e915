import { useState } from 'react';
import type { IntlError } from 'use-intl/core';
import { DEFAULT_LANGUAGE } from './languages';
import { setAppTexts } from './appTexts';
import type { PageIntl } from './pageIntlTypes';

const EMPTY: PageIntl = { language: DEFAULT_LANGUAGE, messages: {} };

/**
 * The language and messages the app renders in: the page's (its props carry them, lib/pageProps.ts),
 * else the last page's. Props without them come only with Next.js's error page after a crash in the
 * browser; the shell around it keeps its texts. Code outside React reads the same (appTexts.ts).
 */
export function useTextsOf(intl: PageIntl | undefined) {
  const [last, setLast] = useState<PageIntl | undefined>(intl);
  if (intl && intl !== last) setLast(intl);
  const shown = intl ?? last ?? EMPTY;
  setAppTexts(shown);
  return { ...shown, onError };
}

/**
 * No time zone is given on purpose until dates go through the messages (the browser's own is
 * right); a missing message is a defect the catalogue test catches, and shows its key meanwhile.
 */
function onError(error: IntlError): void {
  if (error.code === 'ENVIRONMENT_FALLBACK') return;
  console.error(error);
}
