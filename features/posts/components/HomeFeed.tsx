import { useRouter } from 'next/router';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import type { Feed } from '../state/postsApi';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { PageContainer, PageTitle } from '../../../components/ui/Panel';
import { EmptyState } from '../../../components/ui/EmptyState';
import { PostList } from './PostList';
import { appTheme } from '../../../themes';
import { HOME_FEED_PARAM, homeFeedOf, links } from '../../../lib/pages';

const Tabs = styled.div`
  display: flex;
  gap: 4px;
  padding: 4px;
  margin: 16px 0 20px;
  border-radius: ${appTheme.radius.pill};
  background: ${appTheme.color.surface};
  border: 1px solid ${appTheme.color.border};
  button {
    flex: 1;
    height: 36px;
    border: none;
    border-radius: ${appTheme.radius.pill};
    background: transparent;
    color: ${appTheme.color.text};
    font-weight: 600;
    cursor: pointer;
  }
  button[aria-pressed='true'] { background: ${appTheme.color.accent}; color: ${appTheme.color.onAccent}; }
`;

/**
 * The home feed. Its tab is in the address (`/home?feed=everyone`, lib/pages.ts), so Back, a reload
 * and a link keep it; switching tabs replaces the address (a shallow route: no new history entry,
 * so Back leaves the page instead of flipping the tabs, and no read of the page's data).
 */
export function HomeFeed() {
  const t = useTranslations('posts');
  const router = useRouter();
  const feed = homeFeedOf(router.query[HOME_FEED_PARAM]);
  const setFeed = (next: Feed) => {
    if (next !== feed) void router.replace(links.home(next), undefined, { shallow: true, scroll: false });
  };
  return (
    <PageContainer $width={620}>
      <PageTitle>{t('home.title')}</PageTitle>
      <Tabs role="group" aria-label={t('home.feeds')}>
        <button type="button" aria-pressed={feed === 'following'} onClick={() => setFeed('following')}>
          {t('home.following')}
        </button>
        <button type="button" aria-pressed={feed === 'all'} onClick={() => setFeed('all')}>
          {t('home.everyone')}
        </button>
      </Tabs>
      <PostList
        source={{ kind: 'feed', feed }}
        empty={
          feed === 'following' ? (
            <EmptyState>
              <Icon name="users" size={32} />
              <h2>{t('home.quietTitle')}</h2>
              <p>{t('home.quietText')}</p>
              <Button onClick={() => setFeed('all')}>{t('home.browseEveryone')}</Button>
            </EmptyState>
          ) : (
            <EmptyState>
              <Icon name="image" size={32} />
              <h2>{t('home.emptyTitle')}</h2>
              <p>{t('home.emptyText')}</p>
            </EmptyState>
          )
        }
      />
    </PageContainer>
  );
}
