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
  if (user && user.role !== 'admin')
    return (
      <PageContainer $width={720}>
        <Seo title="Page not found" description="This page does not exist." />
        <EmptyState role="status">
          <h1>Page not found</h1>
          <p>This page is for the instance&apos;s admins.</p>
        </EmptyState>
      </PageContainer>
    );
  return (
    <>
      <Seo title="Admin" description="How the instance is doing, reports, users and the admin log." />
      <PageContainer $width={820}>
        <PageTitle>Admin</PageTitle>
        <PageLead>
          How the instance is doing, reports from users, suspensions, and everything admins have done.
        </PageLead>
        {user && <LazyAdminPanel />}
      </PageContainer>
    </>
  );
}
