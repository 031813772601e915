import { privatePageProps } from '../../lib/pageProps';
import { useRouter } from 'next/router';
import { useEffect } from 'react';
import { PageLoading } from '../../components/shell/PageLoading';
import { Seo } from '../../components/ui/Seo';
import { useAppSelector } from '../../store/hooks';
import { selectUser } from '../../features/auth';
import { links } from '../../lib/pages';
import { useTranslations } from 'use-intl/react';

/** The entry to my own profile: it goes on to /profile/{username}. */
export default function MyProfilePage() {
  const t = useTranslations('pages');
  const router = useRouter();
  const user = useAppSelector(selectUser);
  useEffect(() => {
    if (user) void router.replace(links.profile(user.username));
  }, [user, router]);
  return (
    <>
      <Seo title={t('ownProfile.title')} description={t('ownProfile.description')} />
      <PageLoading />
    </>
  );
}

// The server redirects a full load (server/pages/privatePages.ts); a client-side visit keeps the reader's language.
export const getServerSideProps = privatePageProps;
