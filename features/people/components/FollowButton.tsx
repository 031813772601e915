/**
 * Follow / Requested / Following for one person in a list (issue 68, item 30; issue 70): followers
 * and following on a profile, a post's likers, a "started following you" notification (there:
 * "Follow back"). Kept here, not in the store: each button holds its own state, so the profile
 * header's Follow button is not busy while a list's is. Pressing Following unfollows; pressing
 * Requested withdraws the request (someone who approves followers has not answered yet).
 */
import { useState } from 'react';
import styled from 'styled-components';
import { TEXTS } from '../../../lib/texts';
import { apiUrls } from '../../../lib/apiUrls';
import type { Profile } from '../../../lib/types';
import { apiClient, errorMessage } from '../../../services/apiClient';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { fetchLoggedUser, selectUser } from '../../auth';
import { Button } from '../../../components/ui/Button';
import { showToast } from '../../toasts';
import { FOLLOW_REQUEST_TEXTS } from '../lib/followRequestTexts';

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
  /** The words while not followed: "Follow" (default), or "Follow back" on a follow notification. */
  followText?: string;
  /** Told once a follow or unfollow is done (a list keeps the person's new state). */
  onChange?: (followed: boolean) => void;
}

export function FollowButton({
  username,
  followedByMe,
  requested = false,
  followText = 'Follow',
  onChange,
}: FollowButtonProps) {
  const dispatch = useAppDispatch();
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
        const text = state === 'requested' ? FOLLOW_REQUEST_TEXTS.withdrawn(username) : TEXTS.unfollowed(username);
        dispatch(showToast(text, 'success'));
      } else {
        const { data } = await change(username, 'follow', myId);
        const asked = data?.user?.followRequestedByMe === true;
        setState(asked ? 'requested' : 'following');
        onChange?.(!asked);
        dispatch(showToast(asked ? FOLLOW_REQUEST_TEXTS.sent(username) : TEXTS.following(username), 'success'));
      }
      // My following count changed.
      void dispatch(fetchLoggedUser());
    } catch (error) {
      dispatch(showToast(errorMessage(error), 'error'));
    } finally {
      setBusy(false);
    }
  };
  const words = state === 'following' ? 'Following' : state === 'requested' ? 'Requested' : followText;
  return (
    <Small
      type="button"
      $size="sm"
      $variant={state === 'none' ? 'primary' : 'secondary'}
      aria-label={`${words} ${username}`}
      aria-busy={busy}
      disabled={busy}
      title={state === 'requested' ? FOLLOW_REQUEST_TEXTS.withdrawHint : undefined}
      onClick={() => void toggle()}
    >
      {words}
    </Small>
  );
}
