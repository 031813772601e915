import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';

import { AppLink } from '../../../components/ui/AppLink';
import { Skeleton } from '../../../components/ui/Skeleton';
import { links } from '../../../lib/pages';
import { appTheme } from '../../../themes';
import { useNotificationFeed } from '../hooks/useNotificationFeed';
import { NotificationList } from './NotificationList';

const Head = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  padding: 4px 8px 8px;
  h2 { font-size: 16px; margin: 0; }
  a { font-size: 13px; font-weight: 600; }
`;

const Body = styled.div`
  max-height: min(480px, 70vh);
  overflow-y: auto;
`;

const Quiet = styled.p`
  margin: 0;
  padding: 24px 12px;
  text-align: center;
  color: ${appTheme.color.textMuted};
  font-size: 14px;
`;

/** The bell's dropdown: the newest notifications (opening it marks them read) and a link to them all. */
export function NotificationPanel({ onClose, titleId }: { onClose: () => void; titleId: string }) {
  const { items, loading, error } = useNotificationFeed();
  const t = useTranslations('notifications');
  return (
    <>
      <Head>
        <h2 id={titleId}>{t('title')}</h2>
        <AppLink href={links.notifications()} onClick={onClose}>
          {t('seeAll')}
        </AppLink>
      </Head>
      <Body>
        {loading && items.length === 0 ? (
          <div aria-hidden="true" style={{ display: 'grid', gap: 8, padding: 8 }}>
            <Skeleton $h="52px" />
            <Skeleton $h="52px" />
          </div>
        ) : error && items.length === 0 ? (
          <Quiet role="alert">{error}</Quiet>
        ) : items.length === 0 ? (
          <Quiet>{t('panelEmpty')}</Quiet>
        ) : (
          <NotificationList items={items} onNavigate={onClose} />
        )}
      </Body>
    </>
  );
}

export default NotificationPanel;
