/**
 * Follow / Following for one person in a list (issue 68, item 30): followers and following on a
 * profile, a post's likers, a "started following you" notification (there: "Follow back"). Kept
 * here, not in the store: each button holds its own state, so the profile header's Follow button
 * is not busy while a list's is. Pressing Following unfollows.
 */
import { useState } from 'react';
import styled from 'styled-components';
import { TEXTS } from '../../../lib/texts';
import { apiUrls } from '../../../lib/apiUrls';
import { apiClient, errorMessage } from '../../../services/apiClient';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { fetchLoggedUser, selectUser } from '../../auth';
import { Button } from '../../../components/ui/Button';
import { showToast } from '../../toasts';

/** `PATCH /api/users/{name}/follow` or `/unfollow`; the spec's client sends the viewer's own id. */
const change = (username: string, action: 'follow' | 'unfollow', myId: string) =>
  apiClient.patch(`${apiUrls.user(username)}/${action}`, { userId: myId });

const Small = styled(Button)`
  flex: none;
  min-width: 96px;
`;

interface FollowButtonProps {
  username: string;
  followedByMe: boolean;
  /** The words while not followed: "Follow" (default), or "Follow back" on a follow notification. */
  followText?: string;
  /** Told once a follow or unfollow is done (a list keeps the person's new state). */
  onChange?: (followed: boolean) => void;
}

export function FollowButton({ username, followedByMe, followText = 'Follow', onChange }: FollowButtonProps) {
  const dispatch = useAppDispatch();
  // The spec's client sends the viewer's own id; the server reads identity from the session.
  const myId = useAppSelector(selectUser)?._id ?? '';
  const [following, setFollowing] = useState(followedByMe);
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    setBusy(true);
    try {
      if (following) {
        await change(username, 'unfollow', myId);
        setFollowing(false);
        onChange?.(false);
        dispatch(showToast(TEXTS.unfollowed(username), 'success'));
      } else {
        await change(username, 'follow', myId);
        setFollowing(true);
        onChange?.(true);
        dispatch(showToast(TEXTS.following(username), 'success'));
      }
      // My following count changed.
      void dispatch(fetchLoggedUser());
    } catch (error) {
      dispatch(showToast(errorMessage(error), 'error'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Small
      type="button"
      $size="sm"
      $variant={following ? 'secondary' : 'primary'}
      aria-label={`${following ? 'Following' : followText} ${username}`}
      aria-busy={busy}
      disabled={busy}
      onClick={() => void toggle()}
    >
      {following ? 'Following' : followText}
    </Small>
  );
}
