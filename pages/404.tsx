import { NotFound } from '../components/shell/StatusPage';
import { staticPageProps } from '../lib/pageProps';

/** Next.js's own 404 page, made once in English; the server answers unknown paths with pages/notFound.tsx. */
export default NotFound;

export const getStaticProps = staticPageProps;
