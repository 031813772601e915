import type { AppProps } from 'next/app';
import { useState } from 'react';
import { Provider } from 'react-redux';
import { ThemeProvider } from 'styled-components';
import { AppShell } from '../components/shell/AppShell';
import { makeStoreFrom } from '../store/firstLoad';
import { appTheme } from '../themes';

export default function App({ Component, pageProps }: AppProps) {
  // A private page the server rendered brings its first data (lib/firstLoad.ts); other pages start empty.
  const [store] = useState(() => makeStoreFrom(pageProps.firstLoad ?? null));
  return (
    <Provider store={store}>
      <ThemeProvider theme={appTheme}>
        <AppShell>
          <Component {...pageProps} />
        </AppShell>
      </ThemeProvider>
    </Provider>
  );
}
