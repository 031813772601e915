import { NotificationsView } from '../features/notifications';
import { Seo } from '../components/ui/Seo';
import type { PrivatePageProps } from '../lib/firstLoad';
import { privatePageProps } from '../lib/pageProps';

// Rendered by the server with the newest notifications (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;

export default function NotificationsPage({ firstLoad }: PrivatePageProps) {
  const page = firstLoad?.page;
  return (
    <>
      <Seo title="Notifications" description="Who followed you, liked or commented on your posts, and mentioned you." />
      <NotificationsView initial={page?.kind === 'notifications' ? page.notifications : null} />
    </>
  );
}
