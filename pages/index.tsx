import { staticPageProps } from '../lib/pageProps';
import { Hero } from '../features/landing';
import { Seo } from '../components/ui/Seo';

export default function LandingPage() {
  return (
    <>
      <Seo title="Posts" description="Posts: share images with a message and tags, follow people and browse a feed." />
      <Hero />
    </>
  );
}

// Prerendered in English at build time (lib/pageProps.ts).
export const getStaticProps = staticPageProps;
