/**
 * Save a post to find it again (issue 73): a toggle beside Share, on the feed card, the modal and
 * the post's page. Private: no count, the pressed state is the viewer's alone (`savedByMe`).
 */
import { useRef, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { Icon } from '../../../components/ui/Icon';
import { useAppDispatch } from '../../../store/hooks';
import { appTheme } from '../../../themes';
import { savePost } from '../state/thunks';

const Button = styled.button<{ $saved: boolean }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-height: 36px;
  min-width: 36px;
  padding: 0 10px;
  border: none;
  border-radius: ${appTheme.radius.pill};
  background: transparent;
  color: ${({ $saved }) => ($saved ? appTheme.color.accent : appTheme.color.text)};
  cursor: pointer;
  &:hover { background: ${appTheme.color.surfaceRaised}; }
  &[aria-disabled='true'] { cursor: progress; }
`;

export function SaveButton({ postId, saved }: { postId: string; saved: boolean }) {
  const t = useTranslations('posts');
  const dispatch = useAppDispatch();
  // One toggle at a time, as the reaction buttons (a double click sends one).
  const inFlight = useRef(false);
  const [pending, setPending] = useState(false);
  const toggle = async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    try {
      await dispatch(savePost({ id: postId, saved: !saved }));
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  };
  return (
    <Button
      type="button"
      $saved={saved}
      aria-pressed={saved}
      aria-label={saved ? t('save.saved') : t('save.save')}
      title={saved ? t('save.savedTitle') : t('save.save')}
      aria-disabled={pending || undefined}
      onClick={() => void toggle()}
    >
      <Icon name="bookmark" size={18} filled={saved} />
    </Button>
  );
}
