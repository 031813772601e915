import { useRouter } from 'next/router';
import { PageLoading } from '../../components/shell/PageLoading';
import { ProfileView } from '../../features/profile';
import { Seo } from '../../components/ui/Seo';
import { privatePageProps } from '../../lib/pageProps';
import { profileNameOf } from '../../lib/handles';

export default function ProfilePage() {
  const router = useRouter();
  const name = typeof router.query.profileName === 'string' ? profileNameOf(router.query.profileName) : null;
  return (
    <>
      <Seo
        title={name ?? 'Profile'}
        description={name ? `${name}'s posts, followers and following on Posts.` : 'A profile on Posts.'}
      />
      {name ? <ProfileView username={name} /> : <PageLoading />}
    </>
  );
}

// Rendered on the server with the viewer's first data (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;
