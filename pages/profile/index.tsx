import { staticPageProps } from '../../lib/pageProps';
import { useRouter } from 'next/router';
import { useEffect } from 'react';
import { PageLoading } from '../../components/shell/PageLoading';
import { Seo } from '../../components/ui/Seo';
import { useAppSelector } from '../../store/hooks';
import { selectUser } from '../../features/auth';
import { links } from '../../lib/pages';

/** The entry to my own profile: it goes on to /profile/{username}. */
export default function MyProfilePage() {
  const router = useRouter();
  const user = useAppSelector(selectUser);
  useEffect(() => {
    if (user) void router.replace(links.profile(user.username));
  }, [user, router]);
  return (
    <>
      <Seo title="Profile" description="Your Posts profile." />
      <PageLoading />
    </>
  );
}

// Prerendered in English at build time (lib/pageProps.ts).
export const getStaticProps = staticPageProps;
