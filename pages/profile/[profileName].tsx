import { useRouter } from 'next/router';
import { useTranslations } from 'use-intl/react';

import { PageLoading } from '../../components/shell/PageLoading';
import { ProfileView } from '../../features/profile';
import { Seo } from '../../components/ui/Seo';
import { privatePageProps } from '../../lib/pageProps';
import { profileNameOf } from '../../lib/handles';

export default function ProfilePage() {
  const router = useRouter();
  const t = useTranslations('pages');
  const name = typeof router.query.profileName === 'string' ? profileNameOf(router.query.profileName) : null;
  return (
    <>
      <Seo
        title={name ?? t('profile.title')}
        description={name ? t('profile.descriptionOf', { name }) : t('profile.description')}
      />
      {name ? <ProfileView username={name} /> : <PageLoading />}
    </>
  );
}

// Rendered on the server with the viewer's first data (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;
