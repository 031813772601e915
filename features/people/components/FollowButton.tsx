/**
 * Follow / Requested / Following for one person in a list (issue 68, item 30; issue 70): followers
 * and following on a profile, a post's likers, a "started following you" notification (there:
 * "Follow back"). Kept here, not in the store: each button holds its own state, so the profile
 * header's Follow button is not busy while a list's is. Pressing Following unfollows; pressing
 * Requested withdraws the request (someone who approves followers has not answered yet).
 */
import { useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { apiUrls } from '../../../lib/apiUrls';
import type { Profile } from '../../../lib/types';
import { apiClient, errorMessage } from '../../../services/apiClient';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { fetchLoggedUser, selectUser } from '../../auth';
import { Button } from '../../../components/ui/Button';
import { showToast } from '../../toasts';

/** `PATCH /api/users/{name}/follow` or `/unfollow`; the spec's client sends the viewer's own id. */
const change = (username: string, action: 'follow' | 'unfollow', myId: string) =>
  apiClient.patch<{ user?: Profile }>(`${apiUrls.user(username)}/${action}`, { userId: myId });

const Small = styled(Button)`
  flex: none;
  min-width: 96px;
`;

/** Where the viewer stands with the person. */
export type FollowState = 'none' | 'requested' | 'following';

interface FollowButtonProps {
  username: string;
  followedByMe: boolean;
  /** The viewer's follow request waits for their answer. */
  requested?: boolean;
  /** "Follow back" while not followed (a follow notification's), not "Follow". */
  followBack?: boolean;
  /** Told once a follow or unfollow is done (a list keeps the person's new state). */
  onChange?: (followed: boolean) => void;
}

export function FollowButton({
  username,
  followedByMe,
  requested = false,
  followBack = false,
  onChange,
}: FollowButtonProps) {
  const dispatch = useAppDispatch();
  const t = useTranslations('people');
  // The spec's client sends the viewer's own id; the server reads identity from the session.
  const myId = useAppSelector(selectUser)?._id ?? '';
  const [state, setState] = useState<FollowState>(followedByMe ? 'following' : requested ? 'requested' : 'none');
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    setBusy(true);
    try {
      if (state !== 'none') {
        await change(username, 'unfollow', myId);
        setState('none');
        onChange?.(false);
        const text = state === 'requested' ? t('toasts.withdrawn', { username }) : t('toasts.unfollowed', { username });
        dispatch(showToast(text, 'success'));
      } else {
        const { data } = await change(username, 'follow', myId);
        const asked = data?.user?.followRequestedByMe === true;
        setState(asked ? 'requested' : 'following');
        onChange?.(!asked);
        dispatch(
          showToast(asked ? t('toasts.requestSent', { username }) : t('toasts.following', { username }), 'success'),
        );
      }
      // My following count changed.
      void dispatch(fetchLoggedUser());
    } catch (error) {
      dispatch(showToast(errorMessage(error), 'error'));
    } finally {
      setBusy(false);
    }
  };
  let words: string;
  let label: string;
  if (state === 'following') [words, label] = [t('following'), t('followingLabel', { username })];
  else if (state === 'requested') [words, label] = [t('requested'), t('requestedLabel', { username })];
  else if (followBack) [words, label] = [t('followBack'), t('followBackLabel', { username })];
  else [words, label] = [t('follow'), t('followLabel', { username })];
  return (
    <Small
      type="button"
      $size="sm"
      $variant={state === 'none' ? 'primary' : 'secondary'}
      aria-label={label}
      aria-busy={busy}
      disabled={busy}
      title={state === 'requested' ? t('withdrawHint') : undefined}
      onClick={() => void toggle()}
    >
      {words}
    </Small>
  );
}
