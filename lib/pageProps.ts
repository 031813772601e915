/**
 * The pages' data functions. Only getServerSideProps/getStaticProps import this module, so Next.js
 * leaves it (and the ICU compiler behind the messages) out of the browser's code.
 */
import type { IncomingMessage } from 'node:http';
import { firstLoadOf, type PrivatePageProps } from './firstLoad';
import { requestIntl, staticIntl } from './i18n/pageIntl';
import type { PageIntl } from './i18n/pageIntlTypes';

/**
 * getServerSideProps of the private pages. The server has already decided the session (and
 * redirected visitors); this only hands its reads to the page, with the page's language. Data
 * requests of client-side navigations (`/_next/data/…`) carry no reads: the store already holds the
 * session and the page reads its own data, as before.
 */
export async function privatePageProps({ req }: { req: IncomingMessage }): Promise<{ props: PrivatePageProps }> {
  return { props: { firstLoad: firstLoadOf(req), intl: requestIntl(req, firstLoadOf(req)?.user.language) } };
}

/**
 * getStaticProps of the pages made once at build time (the landing page, sign-in, sign-up, 404,
 * /profile): English, the language they are prerendered in (docs/api-decisions.md, issue 75).
 */
export async function staticPageProps(): Promise<{ props: { intl: PageIntl } }> {
  return { props: { intl: staticIntl() } };
}
