import { SavedPosts } from '../features/posts';
import { Seo } from '../components/ui/Seo';
import { privatePageProps } from '../lib/pageProps';

// Rendered by the server with the first saved posts (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;

export default function SavedPage() {
  return (
    <>
      <Seo title="Saved" description="The posts you saved." />
      <SavedPosts />
    </>
  );
}
