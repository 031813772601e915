import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import type { Comment } from '../../../../lib/types';
import { useAppDispatch, useAppSelector } from '../../../../store/hooks';
import { selectCurrentPost } from '../../state/selectors';
import { fetchMoreComments } from '../../state/thunks';
import { Button } from '../../../../components/ui/Button';
import { CommentItem } from './CommentItem';
import { appTheme } from '../../../../themes';

const List = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Empty = styled.p`
  margin: 0;
  padding: 16px 0;
  color: ${appTheme.color.textMuted};
`;

export function CommentList({
  postId,
  postCreator,
  comments,
}: {
  postId: string;
  postCreator: string;
  comments: Comment[];
}) {
  const t = useTranslations('comments');
  const dispatch = useAppDispatch();
  const { commentsNext, commentsLoading } = useAppSelector(selectCurrentPost);
  if (comments.length === 0) return <Empty>{t('empty')}</Empty>;
  return (
    <>
      <List>
        {comments.map((comment) => (
          <CommentItem key={comment.commentId} postId={postId} postCreator={postCreator} comment={comment} />
        ))}
      </List>
      {commentsNext && (
        <Button
          $variant="secondary"
          $size="sm"
          disabled={commentsLoading}
          onClick={() => void dispatch(fetchMoreComments())}
        >
          {t('older')}
        </Button>
      )}
    </>
  );
}
