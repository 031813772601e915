import { ExplorePage } from '../features/explore';
import { Seo } from '../components/ui/Seo';
import type { PrivatePageProps } from '../lib/firstLoad';
import { privatePageProps } from '../lib/pageProps';
import { useTranslations } from 'use-intl/react';

// Rendered by the server with `GET /api/explore`'s answer (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;

export default function Explore({ firstLoad }: PrivatePageProps) {
  const t = useTranslations('pages');
  const page = firstLoad?.page;
  return (
    <>
      <Seo title={t('explore.title')} description={t('explore.description')} />
      <ExplorePage initial={page?.kind === 'explore' ? page.explore : null} />
    </>
  );
}
