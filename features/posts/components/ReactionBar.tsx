import { useRef, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
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
  &:disabled, &[aria-disabled='true'] { cursor: progress; }
`;

interface ReactionBarProps {
  likes: number;
  dislikes: number;
  mine: Reaction | null;
  /** Each toggle may return a promise: until it settles, both buttons refuse another toggle. */
  onLike: () => unknown;
  onDislike: () => unknown;
  busy?: boolean;
  /** What is being reacted to, for screen readers: a post, or a comment by someone. */
  subject: 'post' | { commentBy: string };
  size?: number;
  /** Given: the likes count is a button of its own that opens who likes it (issue 68, item 29). */
  onShowLikes?: () => void;
}

/** The likes count beside a Like button that holds its icon alone. */
const LikesCount = styled.button`
  min-height: 36px;
  min-width: 28px;
  margin-inline-start: -8px;
  padding: 0 8px;
  border: none;
  border-radius: ${appTheme.radius.pill};
  background: transparent;
  color: ${appTheme.color.text};
  font: inherit;
  font-size: 14px;
  font-weight: 600;
  cursor: pointer;
  &:hover:not(:disabled) { background: ${appTheme.color.surfaceRaised}; text-decoration: underline; }
  &:disabled { cursor: default; }
`;

export function ReactionBar({
  likes,
  dislikes,
  mine,
  onLike,
  onDislike,
  busy,
  subject,
  size = 18,
  onShowLikes,
}: ReactionBarProps) {
  const t = useTranslations('posts');
  // One toggle at a time: a double click sends one. The ref answers at once (the second click of a
  // double click may come before a re-render); the state shows it. aria-disabled, not disabled,
  // so a keyboard user's focus stays on the button.
  const inFlight = useRef(false);
  const [pending, setPending] = useState(false);
  const toggle = (run: () => unknown) => async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    try {
      await run();
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  };

  return (
    <Bar>
      <ReactionButton
        type="button"
        $tone="like"
        $active={mine === 'like'}
        aria-pressed={mine === 'like'}
        aria-label={
          subject === 'post'
            ? t('reactions.likePost', { count: likes })
            : t('reactions.likeComment', { count: likes, author: subject.commentBy })
        }
        onClick={toggle(onLike)}
        disabled={busy}
        aria-disabled={pending || undefined}
      >
        <Icon name="like" size={size} filled={mine === 'like'} />
        {!onShowLikes && <span aria-hidden="true">{likes}</span>}
      </ReactionButton>
      {onShowLikes && (
        <LikesCount
          type="button"
          onClick={onShowLikes}
          disabled={likes === 0}
          aria-label={t('reactions.likers', { count: likes })}
          aria-haspopup="dialog"
        >
          {likes}
        </LikesCount>
      )}
      <ReactionButton
        type="button"
        $tone="dislike"
        $active={mine === 'dislike'}
        aria-pressed={mine === 'dislike'}
        aria-label={
          subject === 'post'
            ? t('reactions.dislikePost', { count: dislikes })
            : t('reactions.dislikeComment', { count: dislikes, author: subject.commentBy })
        }
        onClick={toggle(onDislike)}
        disabled={busy}
        aria-disabled={pending || undefined}
      >
        <Icon name="dislike" size={size} filled={mine === 'dislike'} />
        <span aria-hidden="true">{dislikes}</span>
      </ReactionButton>
    </Bar>
  );
}
