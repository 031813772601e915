import { ExplorePage } from '../features/explore';
import { Seo } from '../components/ui/Seo';
import type { PrivatePageProps } from '../lib/firstLoad';
import { privatePageProps } from '../lib/pageProps';

// Rendered by the server with `GET /api/explore`'s answer (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;

export default function Explore({ firstLoad }: PrivatePageProps) {
  const page = firstLoad?.page;
  return (
    <>
      <Seo title="Explore" description="Trending posts and tags, and people to follow." />
      <ExplorePage initial={page?.kind === 'explore' ? page.explore : null} />
    </>
  );
}
