import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { Icon } from '../../../components/ui/Icon';
import { PageContainer, PageTitle } from '../../../components/ui/Panel';
import { EmptyState } from '../../../components/ui/EmptyState';
import { PostList } from './PostList';
import { appTheme } from '../../../themes';

const Lead = styled.p`
  margin: 4px 0 20px;
  color: ${appTheme.color.textMuted};
`;

/** The viewer's saved posts (issue 73), newest saved first: only they see this list. */
export function SavedPosts() {
  const t = useTranslations('posts');
  return (
    <PageContainer $width={620}>
      <PageTitle>{t('saved.title')}</PageTitle>
      <Lead>{t('saved.lead')}</Lead>
      <PostList
        source={{ kind: 'saved' }}
        empty={
          <EmptyState>
            <Icon name="bookmark" size={32} />
            <h2>{t('saved.emptyTitle')}</h2>
            <p>{t('saved.emptyText')}</p>
          </EmptyState>
        }
      />
    </PageContainer>
  );
}
