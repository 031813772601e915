/**
 * Follow a hashtag from its page (issue 73): the home feed then shows its public posts. The state
 * comes with the page's first load; a page reached in the app reads it once.
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { errorMessage } from '../../../services/apiClient';
import { useAppDispatch } from '../../../store/hooks';
import { showToast } from '../../toasts';
import { tagsApi } from '../state/tagsApi';

export function FollowTagButton({ tag, following: first }: { tag: string; following?: boolean }) {
  const dispatch = useAppDispatch();
  const [following, setFollowing] = useState<boolean | null>(first ?? null);
  const [pending, setPending] = useState(false);
  const inFlight = useRef(false);

  useEffect(() => {
    if (first !== undefined) return;
    let live = true;
    tagsApi.state(tag).then(
      (state) => live && setFollowing(state.following),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [tag, first]);

  const toggle = async () => {
    if (inFlight.current || following === null) return;
    inFlight.current = true;
    setPending(true);
    try {
      const state = await tagsApi.follow(tag, !following);
      setFollowing(state.following);
      dispatch(showToast(state.following ? `Following #${tag}: its posts show in Home` : `Unfollowed #${tag}`));
    } catch (error) {
      dispatch(showToast(errorMessage(error), 'error'));
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  };

  return (
    <Button
      $variant={following ? 'secondary' : 'primary'}
      $size="sm"
      aria-pressed={following ?? false}
      aria-label={following ? `Following #${tag}` : `Follow #${tag}`}
      title={following ? `Unfollow #${tag}` : `Show #${tag} posts in Home`}
      disabled={following === null}
      aria-busy={pending || undefined}
      onClick={() => void toggle()}
    >
      {following ? 'Following' : 'Follow'}
    </Button>
  );
}
