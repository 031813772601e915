import { SavedPosts } from '../features/posts';
import { Seo } from '../components/ui/Seo';
import { privatePageProps } from '../lib/pageProps';
import { useTranslations } from 'use-intl/react';

// Rendered by the server with the first saved posts (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;

export default function SavedPage() {
  const t = useTranslations('pages');
  return (
    <>
      <Seo title={t('saved.title')} description={t('saved.description')} />
      <SavedPosts />
    </>
  );
}
