import {
  AccountSettings,
  LazySecuritySettings,
  ProfileSettings,
  SensitiveMediaSetting,
  ThemePicker,
} from '../features/settings';
import { PageContainer, PageLead, PageTitle, Stack } from '../components/ui/Panel';
import { Seo } from '../components/ui/Seo';
import { privatePageProps } from '../lib/firstLoad';
import { useAppSelector } from '../store/hooks';
import { selectUser } from '../features/auth';

// Rendered by the server with the viewer's account (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;

export default function SettingsPage() {
  const user = useAppSelector(selectUser);
  return (
    <>
      <Seo title="Settings" description="Manage your Posts profile, account and theme." />
      <PageContainer $width={720}>
        <PageTitle>Settings</PageTitle>
        <PageLead>Manage your profile, your account, how Posts looks, your devices and your data.</PageLead>
        {user && (
          <Stack $gap={20}>
            <ProfileSettings user={user} />
            <AccountSettings user={user} />
            <ThemePicker />
            <SensitiveMediaSetting />
            <LazySecuritySettings username={user.username} />
          </Stack>
        )}
      </PageContainer>
    </>
  );
}
