import { useRouter } from 'next/router';
import { PageLoading } from '../../components/shell/PageLoading';
import { PostDetail } from '../../features/posts';
import { Seo } from '../../components/ui/Seo';
import { privatePageProps } from '../../lib/pageProps';
import { useTranslations } from 'use-intl/react';

export default function PostPage() {
  const t = useTranslations('pages');
  const router = useRouter();
  const id = typeof router.query.id === 'string' ? router.query.id : null;
  return (
    <>
      <Seo title={t('post.title')} description={t('post.description')} />
      {id ? <PostDetail id={id} /> : <PageLoading />}
    </>
  );
}

// Rendered on the server with the viewer's first data (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;
