import { HomeFeed } from '../components/posts/HomeFeed';
import { Seo } from '../components/ui/Seo';

export default function HomePage() {
  return (
    <>
      <Seo title="Home" description="Your Posts feed: the latest posts from the people you follow and from everyone." />
      <HomeFeed />
    </>
  );
}
