import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { Icon } from '../../../components/ui/Icon';
import { PageContainer, PageTitle } from '../../../components/ui/Panel';
import { EmptyState } from '../../../components/ui/EmptyState';
import { TagList } from '../../../components/ui/TagList';
import { PostList } from './PostList';
import { FollowTagButton } from './FollowTagButton';
import { followable } from '../../../lib/validation';
import { appTheme } from '../../../themes';

/** The searched tags and, for one tag, its Follow button: it wraps below a long tag. */
const TagsRow = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 10px 12px;
  margin-bottom: 20px;
  & > ul { min-width: 0; max-width: 100%; }
`;

const Lead = styled.p`
  margin: 4px 0 12px;
  color: ${appTheme.color.textMuted};
`;

/** `following`: the viewer's follow of the one tag, from the page's first load (issue 73). */
export function TaggedPosts({ tags, following }: { tags: string[]; following?: boolean }) {
  const t = useTranslations('posts');
  return (
    <PageContainer $width={620}>
      <PageTitle>{t('tagged.title')}</PageTitle>
      <Lead>{t('tagged.lead')}</Lead>
      {tags.length > 0 && (
        <TagsRow>
          <TagList tags={tags} label={t('tagged.searchedTags')} />
          {followable(tags) && <FollowTagButton key={tags[0]} tag={tags[0]} following={following} />}
        </TagsRow>
      )}
      {tags.length === 0 ? (
        <EmptyState>
          <h2>{t('tagged.noTagsTitle')}</h2>
          <p>{t('tagged.noTagsText')}</p>
        </EmptyState>
      ) : (
        <PostList
          source={{ kind: 'tagged', tags }}
          empty={
            <EmptyState>
              <Icon name="hash" size={32} />
              <h2>{t('tagged.emptyTitle')}</h2>
              <p>{t('tagged.emptyText', { count: tags.length })}</p>
            </EmptyState>
          }
        />
      )}
    </PageContainer>
  );
}
