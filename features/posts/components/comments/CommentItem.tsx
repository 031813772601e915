import { ReportButton } from '../../../moderation';
import { postsOf } from '../../state/postsSlice';
import { useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { AppLink } from '../../../../components/ui/AppLink';
import type { Comment } from '../../../../lib/types';
import { useAppDispatch, useAppSelector } from '../../../../store/hooks';
import { selectUser } from '../../../auth';
import { deleteComment, dislikeComment, likeComment } from '../../state/thunks';
import { ReactionBar } from '../ReactionBar';
import { Avatar } from '../../../../components/ui/Avatar';
import { ConfirmDialog } from '../../../../components/ui/ConfirmDialog';
import { Icon } from '../../../../components/ui/Icon';
import { PersonName } from '../../../../components/ui/PersonName';
import { MentionText } from '../../../../components/ui/MentionText';
import { RelativeTime } from '../../../../components/ui/RelativeTime';
import { appTheme } from '../../../../themes';
import { links } from '../../../../lib/pages';

const Item = styled.li`
  display: flex;
  gap: 10px;
  padding: 12px 0;
  border-top: 1px solid ${appTheme.color.border};
`;

const Content = styled.div`
  flex: 1;
  min-width: 0;
  p { margin: 2px 0 4px; white-space: pre-wrap; overflow-wrap: anywhere; }
  p a.mention { font-weight: 600; }
`;

// A long username breaks inside the card, and the time goes under it where both do not fit.
const Meta = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  column-gap: 8px;
  a { min-width: 0; overflow-wrap: anywhere; color: ${appTheme.color.text}; font-weight: 700; text-decoration: none; }
  a:hover { text-decoration: underline; }
  .handle { font-size: 13px; font-weight: 400; color: ${appTheme.color.textMuted}; }
  time { font-size: 12px; color: ${appTheme.color.textMuted}; }
`;

const Actions = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  margin-inline-start: -12px;
`;

const DeleteButton = styled.button`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 32px;
  height: 32px;
  border: none;
  border-radius: 50%;
  background: transparent;
  color: ${appTheme.color.textMuted};
  cursor: pointer;
  &:hover { background: ${appTheme.color.surfaceRaised}; color: ${appTheme.color.danger}; }
`;

const ReportLink = styled(ReportButton)`
  margin-inline-start: auto;
  padding: 4px 10px;
  border: none;
  border-radius: ${appTheme.radius.pill};
  background: transparent;
  color: ${appTheme.color.textMuted};
  font-size: 13px;
  font-weight: 600;
  cursor: pointer;
  &:hover { background: ${appTheme.color.surfaceRaised}; color: ${appTheme.color.text}; }
`;

interface CommentItemProps {
  postId: string;
  /** The post's creator may remove any comment on it. */
  postCreator: string;
  comment: Comment;
}

export function CommentItem({ postId, postCreator, comment }: CommentItemProps) {
  const t = useTranslations('comments');
  const dispatch = useAppDispatch();
  const me = useAppSelector(selectUser);
  const busy = useAppSelector((state) => postsOf(state).likeComment.status === 'loading');
  const [confirming, setConfirming] = useState(false);
  const args = { postId, commentId: comment.commentId };
  const mayDelete = me && (me.username === comment.creator || me.username === postCreator || me.role === 'admin');

  return (
    <Item>
      <Avatar src={comment.creatorImage} name={comment.creator} size={32} />
      <Content>
        <Meta>
          <AppLink href={links.profile(comment.creator)}>
            <PersonName username={comment.creator} displayName={comment.creatorName} />
          </AppLink>
          <RelativeTime iso={comment.createdAt} />
        </Meta>
        <p dir="auto">
          <MentionText text={comment.message} mentions={comment.mentions} />
        </p>
        <Actions>
          <ReactionBar
            subject={{ commentBy: comment.creator }}
            size={15}
            likes={comment.likesCount}
            dislikes={comment.dislikesCount}
            mine={comment.myReaction}
            busy={busy}
            onLike={() => dispatch(likeComment(args))}
            onDislike={() => dispatch(dislikeComment(args))}
          />
          {me && me.username !== comment.creator && (
            <ReportLink
              targetType="comment"
              targetId={comment.commentId}
              label={t('report', { author: comment.creator })}
            />
          )}
          {mayDelete && (
            <DeleteButton
              type="button"
              aria-label={t('deleteLabel', { author: comment.creator })}
              onClick={() => setConfirming(true)}
            >
              <Icon name="trash" size={16} />
            </DeleteButton>
          )}
        </Actions>
      </Content>
      {confirming && (
        <ConfirmDialog
          title={t('deleteTitle')}
          message={t('deleteMessage')}
          confirmLabel={t('delete')}
          onCancel={() => setConfirming(false)}
          onConfirm={async () => {
            await dispatch(deleteComment(args));
            setConfirming(false);
          }}
        />
      )}
    </Item>
  );
}
