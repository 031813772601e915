import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { Provider } from 'react-redux';
import { ThemeProvider } from 'styled-components';
import { IntlProvider } from 'use-intl/react';
import type { Language } from '../../../lib/i18n/languages';
import { setAppTexts } from '../../../lib/i18n/appTexts';
import { pageIntl } from '../../../lib/i18n/pageIntl';
import type { User } from '../../../lib/types';
import { makeStore, type AppStore, type RootState } from '../../../store';
import { appTheme } from '../../../themes';

interface Options extends Omit<RenderOptions, 'wrapper'> {
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  /** The page's language (English by default), its messages compiled as the pages get them (lib/pageProps.ts). */
  language?: Language;
}

/** A store whose session is signed in as `user`. */
export function signedInState(user: User): Partial<RootState> {
  const base = makeStore().getState();
  return { auth: { ...base.auth, user, session: 'loggedIn' } };
}

/** Renders `ui` with the app's messages, Redux store and theme, as pages/_app.tsx does. */
export function renderWithProviders(
  ui: ReactElement,
  { preloadedState, store = makeStore(preloadedState), language = 'en', ...options }: Options = {},
) {
  const intl = pageIntl(language);
  setAppTexts(intl);
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <IntlProvider locale={intl.language} messages={intl.messages}>
      <Provider store={store}>
        <ThemeProvider theme={appTheme}>{children}</ThemeProvider>
      </Provider>
    </IntlProvider>
  );
  return { store, ...render(ui, { wrapper: Wrapper, ...options }) };
}
