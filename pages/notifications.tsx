import { NotificationsView } from '../features/notifications';
import { Seo } from '../components/ui/Seo';
import type { PrivatePageProps } from '../lib/firstLoad';
import { privatePageProps } from '../lib/pageProps';
import { useTranslations } from 'use-intl/react';

// Rendered by the server with the newest notifications (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;

export default function NotificationsPage({ firstLoad }: PrivatePageProps) {
  const t = useTranslations('pages');
  const page = firstLoad?.page;
  return (
    <>
      <Seo title={t('notifications.title')} description={t('notifications.description')} />
      <NotificationsView initial={page?.kind === 'notifications' ? page.notifications : null} />
    </>
  );
}
