import { HomeFeed } from '../features/posts';
import { SharedImageOpener } from '../features/sharedImage';
import { Seo } from '../components/ui/Seo';
import { privatePageProps } from '../lib/pageProps';
import { useTranslations } from 'use-intl/react';

export default function HomePage() {
  const t = useTranslations('pages');
  return (
    <>
      <Seo title={t('home.title')} description={t('home.description')} />
      <HomeFeed />
      <SharedImageOpener />
    </>
  );
}

// Rendered on the server with the viewer's first data (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;
