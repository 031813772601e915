import styled from 'styled-components';
import { Icon } from '../../../components/ui/Icon';
import { PageContainer, PageTitle } from '../../../components/ui/Panel';
import { EmptyState } from '../../../components/ui/EmptyState';
import { TagList } from '../../../components/ui/TagList';
import { PostList } from './PostList';
import { appTheme } from '../../../themes';

const Lead = styled.p`
  margin: 4px 0 12px;
  color: ${appTheme.color.textMuted};
`;

export function TaggedPosts({ tags }: { tags: string[] }) {
  return (
    <PageContainer $width={620}>
      <PageTitle>Tagged</PageTitle>
      <Lead>Posts with any of these tags, newest first.</Lead>
      {tags.length > 0 && <TagList tags={tags} label="Searched tags" style={{ marginBottom: 20 }} />}
      {tags.length === 0 ? (
        <EmptyState>
          <h2>No tags to search</h2>
          <p>Type a tag in the search bar, press Enter, then Search.</p>
        </EmptyState>
      ) : (
        <PostList
          source={{ kind: 'tagged', tags }}
          empty={
            <EmptyState>
              <Icon name="hash" size={32} />
              <h2>Nothing tagged yet</h2>
              <p>No post carries {tags.length === 1 ? 'this tag' : 'these tags'} yet. Be the first with Create post.</p>
            </EmptyState>
          }
        />
      )}
    </PageContainer>
  );
}
