import Document, { Head, Html, Main, NextScript, type DocumentContext, type DocumentInitialProps } from 'next/document';
import { ServerStyleSheet } from 'styled-components';
import { CSP_NONCE_HEADER } from '../lib/csp';
import { earlyReadsOf, earlyReadsScript } from '../lib/earlyReadsScript';
import { largestImage, type FirstLoad } from '../lib/firstLoad';
import { DEFAULT_THEME } from '../lib/limits';
import { applyStoredThemeScript } from '../lib/storedTheme';
import { globalCss } from '../styles/globalCss';
import { hideVerifyBannerScript } from '../lib/verifyBanner';
import { palettes } from '../themes';
import { MANIFEST_PATH, registerServiceWorkerScript } from '../lib/pwa';
import { DEFAULT_LANGUAGE, directionOf, isLanguage } from '../lib/i18n/languages';
import { serverErrorLanguageScript } from '../lib/i18n/serverErrorScript';

type Props = DocumentInitialProps & {
  /** This response's CSP nonce (server/app.ts); none for pages prerendered at build (their scripts go by hash). */
  nonce?: string;
};

export default class AppDocument extends Document<Props> {
  static async getInitialProps(ctx: DocumentContext): Promise<Props> {
    const sheet = new ServerStyleSheet();
    const originalRenderPage = ctx.renderPage;
    try {
      ctx.renderPage = () =>
        originalRenderPage({ enhanceApp: (App) => (props) => sheet.collectStyles(<App {...props} />) });
      const initialProps = await Document.getInitialProps(ctx);
      const nonce = ctx.req?.headers[CSP_NONCE_HEADER];
      return {
        ...initialProps,
        styles: [initialProps.styles, sheet.getStyleElement()],
        ...(typeof nonce === 'string' ? { nonce } : {}),
      };
    } finally {
      sheet.seal();
    }
  }

  render() {
    // A private page rendered on the server with its first data needs no early reads: its HTML
    // already holds them, and the image it shows largest is requested from here. Any other page
    // starts the reads the page table gives its route (none on the public pages). The private
    // pages' documents are made per request; the static ones (404, 500) at build time.
    const { page, query, props } = this.props.__NEXT_DATA__;
    const firstLoad: FirstLoad | null = props?.pageProps?.firstLoad ?? null;
    const image = largestImage(firstLoad);
    const earlyReads = firstLoad ? null : earlyReadsOf(page, query);
    const { nonce } = this.props;
    // The page's language (lib/pageProps.ts); Arabic sets the whole document right to left.
    const language: unknown = props?.pageProps?.intl?.language;
    const lang = isLanguage(language) ? language : DEFAULT_LANGUAGE;
    const dir = directionOf(lang);
    return (
      <Html lang={lang} dir={dir === 'rtl' ? dir : undefined} data-theme={DEFAULT_THEME}>
        <Head nonce={nonce}>
          {/* Before the scripts: the page's largest image must not queue behind them. */}
          {image && (
            <link
              rel="preload"
              as="image"
              href={image.href}
              imageSrcSet={image.srcSet}
              imageSizes={image.sizes}
              fetchPriority="high"
            />
          )}
          <script
            nonce={nonce}
            dangerouslySetInnerHTML={{
              __html: applyStoredThemeScript + hideVerifyBannerScript + registerServiceWorkerScript,
            }}
          />
          <style dangerouslySetInnerHTML={{ __html: globalCss }} />
          {/* A private client shell's first reads start here, while the app's code downloads. */}
          {earlyReads && <script nonce={nonce} dangerouslySetInnerHTML={{ __html: earlyReadsScript(earlyReads) }} />}
          <meta name="theme-color" content={palettes[DEFAULT_THEME].bg} />
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
          {/* Installable (issue 74): the manifest, and the home-screen icon iOS reads instead. */}
          <link rel="manifest" href={MANIFEST_PATH} />
          <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        </Head>
        <body>
          <Main />
          <NextScript nonce={nonce} />
          {/* After __NEXT_DATA__, before Next's deferred scripts: the 500 page in the reader's language. */}
          {page === '/500' && <script dangerouslySetInnerHTML={{ __html: serverErrorLanguageScript }} />}
        </body>
      </Html>
    );
  }
}
