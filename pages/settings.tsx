import { useTranslations } from 'use-intl/react';
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
  const t = useTranslations('settings');
  return (
    <>
      <Seo title={t('page.title')} description={t('page.description')} />
      <SettingsLayout>
        <div>
          <PageTitle>{t('page.title')}</PageTitle>
          <PageLead>{t('page.lead')}</PageLead>
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
