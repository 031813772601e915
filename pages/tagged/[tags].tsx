import { useRouter } from 'next/router';
import { PageLoading } from '../../components/shell/PageLoading';
import { TaggedPosts } from '../../features/posts';
import { Seo } from '../../components/ui/Seo';
import { privatePageProps } from '../../lib/firstLoad';
import { tagList } from '../../lib/tags';

export default function TaggedPage() {
  const router = useRouter();
  const raw = typeof router.query.tags === 'string' ? router.query.tags : null;
  // As its first read (lib/pages.ts) reads them.
  const tags = raw ? tagList(raw) : [];
  return (
    <>
      <Seo
        title={tags.length ? tags.map((t) => `#${t}`).join(', ') : 'Tagged'}
        description={tags.length ? `Posts tagged ${tags.join(', ')}.` : 'Posts by tag.'}
      />
      {router.isReady ? <TaggedPosts tags={tags} /> : <PageLoading />}
    </>
  );
}

// Rendered on the server with the viewer's first data (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;
