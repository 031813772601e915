import type { AppProps } from 'next/app';
import { useState } from 'react';
import { Provider } from 'react-redux';
import { ThemeProvider } from 'styled-components';
import { IntlProvider } from 'use-intl/react';
import { AppShell } from '../components/shell/AppShell';
import { makeStoreFrom } from '../store/firstLoad';
import { appTheme } from '../themes';
import { useTextsOf } from '../lib/i18n/useTextsOf';
import { useServerErrorLanguage } from '../lib/i18n/serverErrorLanguage';

export default function App({ Component, pageProps }: AppProps) {
  // A private page the server rendered brings its first data (lib/firstLoad.ts); other pages start empty.
  // `serverState`: a boundary hydrating late (the lazy navbar) renders the state the server's HTML
  // was made from, though the page changed the store meanwhile (issue 68, item 21: /notifications
  // had marked all read, and the bar's count no longer matched its HTML: React error #418).
  const [[store, serverState]] = useState(() => {
    const made = makeStoreFrom(pageProps.firstLoad ?? null);
    return [made, made.getState()] as const;
  });
  // The 500 page's language is the one its script chose before React ran (lib/i18n/serverErrorLanguage.ts).
  const intl = useTextsOf(useServerErrorLanguage(pageProps.intl, pageProps.otherLanguages));
  return (
    <IntlProvider locale={intl.language} messages={intl.messages} onError={intl.onError}>
      <Provider store={store} serverState={serverState}>
        <ThemeProvider theme={appTheme}>
          <AppShell>
            <Component {...pageProps} />
          </AppShell>
        </ThemeProvider>
      </Provider>
    </IntlProvider>
  );
}
