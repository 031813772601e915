import { NotFound } from '../components/shell/StatusPage';
import { notFoundPageProps } from '../lib/pageProps';

/** What the server answers a path no page serves with (server/pages/nextRoutes.ts): a 404, in the reader's language. */
export default NotFound;

export const getServerSideProps = notFoundPageProps;
