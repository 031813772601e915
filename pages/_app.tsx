import type { AppProps } from 'next/app';
import { useState } from 'react';
import { Provider } from 'react-redux';
import { ThemeProvider } from 'styled-components';
import { AppShell } from '../components/layout/AppShell';
import { makeStore } from '../store';
import { GlobalStyle } from '../styles/GlobalStyle';
import { appTheme } from '../themes';

export default function App({ Component, pageProps }: AppProps) {
  const [store] = useState(() => makeStore());
  return (
    <Provider store={store}>
      <ThemeProvider theme={appTheme}>
        <GlobalStyle />
        <AppShell>
          <Component {...pageProps} />
        </AppShell>
      </ThemeProvider>
    </Provider>
  );
}
