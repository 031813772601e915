import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';

import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { PageContainer, PageLead, PageTitle } from '../../../components/ui/Panel';
import { Skeleton } from '../../../components/ui/Skeleton';
import { Spinner } from '../../../components/ui/Spinner';
import { useInfiniteScroll } from '../../../hooks/useInfiniteScroll';
import type { ListPage } from '../../../lib/firstLoad';
import type { AppNotification } from '../../../lib/types';
import { appTheme } from '../../../themes';
import { useNotificationFeed } from '../hooks/useNotificationFeed';
import { NotificationList } from './NotificationList';
import { FollowRequests } from '../../people';

const Surface = styled.section`
  padding: 8px;
  border-radius: ${appTheme.radius.lg};
  background: ${appTheme.color.surface};
  border: 1px solid ${appTheme.color.border};
`;

const More = styled.div`
  display: flex;
  justify-content: center;
  &:not(:empty) { padding: 16px; }
`;

/** The notifications page: every notification, newest first, paged as it scrolls; seeing them marks them read. */
export function NotificationsView({ initial = null }: { initial?: ListPage<AppNotification> | null }) {
  const { items, loading, error, hasMore, loadMore } = useNotificationFeed(initial);
  const sentinel = useInfiniteScroll(loadMore, hasMore && !loading);
  const t = useTranslations('notifications');

  let body;
  if (loading && items.length === 0) {
    body = (
      <div aria-hidden="true" style={{ display: 'grid', gap: 8 }}>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} $h="64px" />
        ))}
      </div>
    );
  } else if (error && items.length === 0) {
    body = <EmptyState role="alert">{error}</EmptyState>;
  } else if (items.length === 0) {
    body = (
      <EmptyState>
        <Icon name="bell" size={28} />
        <h2>{t('emptyTitle')}</h2>
        <p>{t('emptyText')}</p>
      </EmptyState>
    );
  } else {
    body = (
      <Surface aria-labelledby="notifications-title">
        <NotificationList items={items} />
        <More ref={sentinel}>{loading && <Spinner />}</More>
      </Surface>
    );
  }

  return (
    <PageContainer $width={640}>
      <PageTitle id="notifications-title">{t('title')}</PageTitle>
      <PageLead>{t('lead')}</PageLead>
      <FollowRequests />
      {body}
    </PageContainer>
  );
}
