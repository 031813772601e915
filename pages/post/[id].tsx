import { useRouter } from 'next/router';
import { PageLoading } from '../../components/shell/PageLoading';
import { PostDetail } from '../../features/posts';
import { Seo } from '../../components/ui/Seo';
import { privatePageProps } from '../../lib/pageProps';

export default function PostPage() {
  const router = useRouter();
  const id = typeof router.query.id === 'string' ? router.query.id : null;
  return (
    <>
      <Seo title="Post" description="A post on Posts with its image, message, tags and comments." />
      {id ? <PostDetail id={id} /> : <PageLoading />}
    </>
  );
}

// Rendered on the server with the viewer's first data (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;
