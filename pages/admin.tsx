import { useTranslations } from 'use-intl/react';
import { LazyAdminPanel } from '../features/moderation';
import { selectUser } from '../features/auth';
import { EmptyState } from '../components/ui/EmptyState';
import { PageContainer, PageLead, PageTitle } from '../components/ui/Panel';
import { Seo } from '../components/ui/Seo';
import { privatePageProps } from '../lib/pageProps';
import { useAppSelector } from '../store/hooks';

// Rendered by the server with the viewer's account (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;

export default function AdminPage() {
  const user = useAppSelector(selectUser);
  const t = useTranslations('admin');
  if (user && user.role !== 'admin')
    return (
      <PageContainer $width={720}>
        <Seo title={t('page.notFoundTitle')} description={t('page.notFoundDescription')} />
        <EmptyState role="status">
          <h1>{t('page.notFoundTitle')}</h1>
          <p>{t('page.notFoundText')}</p>
        </EmptyState>
      </PageContainer>
    );
  return (
    <>
      <Seo title={t('page.title')} description={t('page.description')} />
      <PageContainer $width={820}>
        <PageTitle>{t('page.title')}</PageTitle>
        <PageLead>{t('page.lead')}</PageLead>
        {user && <LazyAdminPanel />}
      </PageContainer>
    </>
  );
}
