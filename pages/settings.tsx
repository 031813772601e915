import {
  AccountSettings,
  LazySecuritySettings,
  PrivacySettings,
  ProfileSettings,
  SensitiveMediaSetting,
  SettingsLayout,
  SettingsNav,
  ThemePicker,
} from '../features/settings';
import { PageLead, PageTitle, Stack } from '../components/ui/Panel';
import { Seo } from '../components/ui/Seo';
import { privatePageProps } from '../lib/pageProps';
import { useAppSelector } from '../store/hooks';
import { selectUser } from '../features/auth';
import { LazyMovingSettings } from '../features/moving';
import { LazyInstagramImport } from '../features/instagramImport';
import { LazyPushSettings } from '../features/push';

// Rendered by the server with the viewer's account (server/pages/privatePages.ts).
export const getServerSideProps = privatePageProps;

export default function SettingsPage() {
  const user = useAppSelector(selectUser);
  return (
    <>
      <Seo title="Settings" description="Manage your Posts profile, account and theme." />
      <SettingsLayout>
        <div>
          <PageTitle>Settings</PageTitle>
          <PageLead>Manage your profile, your account, how Posts looks, your devices and your data.</PageLead>
        </div>
        {user && <SettingsNav />}
        {user && (
          <Stack $gap={20}>
            <ProfileSettings user={user} />
            <AccountSettings user={user} />
            <ThemePicker />
            <SensitiveMediaSetting />
            <LazyPushSettings />
            <PrivacySettings user={user} />
            <LazySecuritySettings username={user.username} />
            <LazyMovingSettings />
            <LazyInstagramImport />
          </Stack>
        )}
      </SettingsLayout>
    </>
  );
}
