import { HomeFeed } from '../features/posts';
import { SharedImageOpener } from '../features/sharedImage';
import { Seo } from '../components/ui/Seo';
import { privatePageProps } from '../lib/pageProps';

export default function HomePage() {
  return (
    <>
      <Seo title="Home" description="Your Posts feed: the latest posts from the people you follow and from everyone." />
      <HomeFeed />
      <SharedImageOpener />
    </>
  );
}

// Rendered on the server with the viewer's first data (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;
