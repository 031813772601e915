import Link from 'next/link';
import styled from 'styled-components';
import type { Comment } from '../../lib/types';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { dislikeComment, likeComment } from '../../store/slices/postsSlice';
import { ReactionBar } from '../posts/ReactionBar';
import { Avatar } from '../ui/Avatar';
import { RelativeTime } from '../ui/RelativeTime';

const Item = styled.li`
  display: flex;
  gap: 10px;
  padding: 12px 0;
  border-top: 1px solid ${({ theme }) => theme.color.border};
`;

const Content = styled.div`
  flex: 1;
  min-width: 0;
  p { margin: 2px 0 4px; white-space: pre-wrap; overflow-wrap: anywhere; }
`;

const Meta = styled.div`
  display: flex;
  align-items: baseline;
  gap: 8px;
  a { color: ${({ theme }) => theme.color.text}; font-weight: 700; text-decoration: none; }
  a:hover { text-decoration: underline; }
  time { font-size: 12px; color: ${({ theme }) => theme.color.textMuted}; }
`;

export function CommentItem({ postId, comment }: { postId: string; comment: Comment }) {
  const dispatch = useAppDispatch();
  const busy = useAppSelector((state) => state.posts.likeComment.status === 'loading');
  const args = { postId, commentId: comment.commentId };
  return (
    <Item>
      <Avatar src={comment.creatorImage} name={comment.creator} size={32} />
      <Content>
        <Meta>
          <Link href={`/profile/${encodeURIComponent(comment.creator)}`}>{comment.creator}</Link>
          <RelativeTime iso={comment.createdAt} />
        </Meta>
        <p>{comment.message}</p>
        <ReactionBar
          subject={`comment by ${comment.creator}`}
          size={15}
          likes={comment.likesCount}
          dislikes={comment.dislikesCount}
          mine={comment.myReaction}
          busy={busy}
          onLike={() => dispatch(likeComment(args))}
          onDislike={() => dispatch(dislikeComment(args))}
        />
      </Content>
    </Item>
  );
}
