import styled from 'styled-components';
import type { Reaction } from '../../../lib/types';
import { Icon } from '../../../components/ui/Icon';
import { appTheme } from '../../../themes';

const Bar = styled.div`
  display: inline-flex;
  gap: 4px;
`;

export const ReactionButton = styled.button<{ $active: boolean; $tone: 'like' | 'dislike' }>`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  min-height: 36px;
  padding: 0 12px;
  border-radius: ${appTheme.radius.pill};
  border: 1px solid ${({ $active, theme, $tone }) => ($active ? ($tone === 'like' ? theme.color.success : theme.color.danger) : 'transparent')};
  background: ${({ $active, theme }) => ($active ? theme.color.surfaceRaised : 'transparent')};
  color: ${({ $active, theme, $tone }) => ($active ? ($tone === 'like' ? theme.color.success : theme.color.danger) : theme.color.text)};
  font-weight: 600;
  font-size: 14px;
  cursor: pointer;
  &:hover:not(:disabled) { background: ${appTheme.color.surfaceRaised}; }
  &:disabled { cursor: progress; }
`;

interface ReactionBarProps {
  likes: number;
  dislikes: number;
  mine: Reaction | null;
  onLike: () => void;
  onDislike: () => void;
  busy?: boolean;
  /** What is being reacted to, for screen readers ("post", "comment"). */
  subject: string;
  size?: number;
}

export function ReactionBar({ likes, dislikes, mine, onLike, onDislike, busy, subject, size = 18 }: ReactionBarProps) {
  return (
    <Bar>
      <ReactionButton
        type="button"
        $tone="like"
        $active={mine === 'like'}
        aria-pressed={mine === 'like'}
        aria-label={`Like ${subject}, ${likes} ${likes === 1 ? 'like' : 'likes'}`}
        onClick={onLike}
        disabled={busy}
      >
        <Icon name="like" size={size} filled={mine === 'like'} />
        <span aria-hidden="true">{likes}</span>
      </ReactionButton>
      <ReactionButton
        type="button"
        $tone="dislike"
        $active={mine === 'dislike'}
        aria-pressed={mine === 'dislike'}
        aria-label={`Dislike ${subject}, ${dislikes} ${dislikes === 1 ? 'dislike' : 'dislikes'}`}
        onClick={onDislike}
        disabled={busy}
      >
        <Icon name="dislike" size={size} filled={mine === 'dislike'} />
        <span aria-hidden="true">{dislikes}</span>
      </ReactionButton>
    </Bar>
  );
}
