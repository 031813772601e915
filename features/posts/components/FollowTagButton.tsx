/**
 * Follow a hashtag from its page (issue 73): the home feed then shows its public posts. The state
 * comes with the page's first load; a page reached in the app reads it once.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslations } from 'use-intl/react';
import { Button } from '../../../components/ui/Button';
import { errorMessage } from '../../../services/apiClient';
import { useAppDispatch } from '../../../store/hooks';
import { showToast } from '../../toasts';
import { tagsApi } from '../state/tagsApi';

export function FollowTagButton({ tag, following: first }: { tag: string; following?: boolean }) {
  const t = useTranslations('posts');
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
      dispatch(showToast(state.following ? t('followTag.followed', { tag }) : t('followTag.unfollowed', { tag })));
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
      aria-label={following ? t('followTag.followingLabel', { tag }) : t('followTag.followLabel', { tag })}
      title={following ? t('followTag.unfollowTitle', { tag }) : t('followTag.followTitle', { tag })}
      disabled={following === null}
      aria-busy={pending || undefined}
      onClick={() => void toggle()}
    >
      {following ? t('followTag.following') : t('followTag.follow')}
    </Button>
  );
}
