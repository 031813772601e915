import styled from 'styled-components';
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
  return (
    <PageContainer $width={620}>
      <PageTitle>Saved</PageTitle>
      <Lead>Posts you saved, newest saved first. Only you can see them.</Lead>
      <PostList
        source={{ kind: 'saved' }}
        empty={
          <EmptyState>
            <Icon name="bookmark" size={32} />
            <h2>Nothing saved yet</h2>
            <p>Press the bookmark under a post to save it here. Nobody else sees what you save.</p>
          </EmptyState>
        }
      />
    </PageContainer>
  );
}
