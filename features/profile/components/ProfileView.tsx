import { lazy, Suspense, useDeferredValue, useEffect } from 'react';
import { useRouter } from 'next/router';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { selectUser } from '../../auth';
import { firstLoadKey, useTakeFirstLoad } from '../../../store/firstLoad';
import { cameByHistory } from '../../../hooks/historyNavigation';
import type { AppStore } from '../../../store/index';
import { useStore } from 'react-redux';
import { fetchProfile, selectProfile } from '../state/userSlice';
import { EmptyState } from '../../../components/ui/EmptyState';
import { WayForward } from '../../../components/ui/WayForward';
import { editorOpened, PostList } from '../../posts';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { Skeleton } from '../../../components/ui/Skeleton';
import { ConnectionSkeleton } from './ConnectionSkeleton';
import { ProfileHeader } from './ProfileHeader';
import { appTheme } from '../../../themes';

// Its own chunk, with RTK Query: a profile opened on its posts never loads either (docs/frontend.md).
const ConnectionList = lazy(() => import('./ConnectionList'));

type Tab = 'posts' | 'followers' | 'following';

/**
 * The tab is in the address (issue 68, item 14): `/profile/ann?tab=followers`, as the home feed's
 * (`/home?feed=everyone`), so a reload, Back and a shared link keep it. Posts is the plain address.
 */
export const PROFILE_TAB_PARAM = 'tab';
const tabOf = (param: unknown): Tab => (param === 'followers' || param === 'following' ? param : 'posts');

const Body = styled.div`
  max-width: 935px;
  margin: 0 auto;
  padding: 0 16px 64px;
`;

const Tabs = styled.div`
  display: flex;
  gap: 4px;
  margin: 24px 0 16px;
  border-bottom: 1px solid ${appTheme.color.border};
  button {
    display: inline-flex;
    align-items: center;
    gap: 6px;
    padding: 12px 14px;
    border: none;
    border-bottom: 2px solid transparent;
    margin-bottom: -1px;
    background: none;
    color: ${appTheme.color.textMuted};
    font-weight: 600;
    cursor: pointer;
  }
  button[aria-pressed='true'] { color: ${appTheme.color.text}; border-bottom-color: ${appTheme.color.accent}; }
  /* The three tabs were 338px wide at 320 (issue 68, item 9): the page scrolled sideways. */
  @media (max-width: 359px) { gap: 0; button { padding: 12px 8px; } }
`;

function ProfileSkeleton() {
  return (
    <div aria-hidden="true">
      <Skeleton $h="220px" style={{ borderRadius: 0 }} />
      <Body>
        <Skeleton $w="120px" $h="120px" $round style={{ marginTop: -56 }} />
        <Skeleton $w="200px" $h="24px" style={{ marginTop: 16 }} />
        <Skeleton $w="300px" style={{ marginTop: 10 }} />
      </Body>
    </div>
  );
}

export function ProfileView({ username }: { username: string }) {
  const t = useTranslations('profile');
  const dispatch = useAppDispatch();
  const me = useAppSelector(selectUser);
  // Transition priority: the profile renders in short, interruptible tasks.
  const { data: profile, loading, error } = useDeferredValue(useAppSelector(selectProfile));
  const router = useRouter();
  const tab = tabOf(router.query[PROFILE_TAB_PARAM]);
  // Replaced, not pushed, as the home feed's tab: Back leaves the profile rather than stepping tabs.
  const setTab = (next: Tab) => {
    if (next === tab) return;
    const query: Record<string, string> = { profileName: String(router.query.profileName ?? username) };
    if (next !== 'posts') query[PROFILE_TAB_PARAM] = next;
    void router.replace({ pathname: router.pathname, query }, undefined, { shallow: true, scroll: false });
  };

  const takeFirstLoad = useTakeFirstLoad();
  const store = useStore.withTypes<AppStore>()();

  useEffect(() => {
    // The server rendered the page with this profile already: no second read on the first mount.
    if (takeFirstLoad(firstLoadKey.profile(username))) return;
    // Back to the profile still in the store: it stays on screen (and its posts grid with it, so the
    // scroll position can be put back) while it is read again.
    const shown = selectProfile(store.getState()).data;
    const quiet = cameByHistory() && shown?.username.toLowerCase() === username.toLowerCase();
    void dispatch(fetchProfile({ username, quiet }));
  }, [dispatch, username, takeFirstLoad, store]);

  if (error) {
    return (
      <Body style={{ paddingTop: 'calc(var(--navbar-height) + 32px)' }}>
        <h1 className="visually-hidden">{t('notFound')}</h1>
        <EmptyState role="alert">
          <Icon name="user" size={32} />
          <h2>{username}</h2>
          <p>{error}</p>
          <WayForward />
        </EmptyState>
      </Body>
    );
  }
  if (loading || !profile || profile.username.toLowerCase() !== username.toLowerCase()) return <ProfileSkeleton />;

  const isMe = me?.username === profile.username;

  return (
    <>
      <ProfileHeader profile={profile} isMe={isMe} />
      <Body>
        <Tabs role="group" aria-label={t('tabs.label')}>
          <button type="button" aria-pressed={tab === 'posts'} onClick={() => setTab('posts')}>
            <Icon name="grid" size={16} /> {t('tabs.posts')}
          </button>
          <button type="button" aria-pressed={tab === 'followers'} onClick={() => setTab('followers')}>
            {t('tabs.followers')}
          </button>
          <button type="button" aria-pressed={tab === 'following'} onClick={() => setTab('following')}>
            {t('tabs.following')}
          </button>
        </Tabs>
        {tab === 'posts' && profile.blockedByMe ? (
          <EmptyState>
            <Icon name="user" size={32} />
            <h2>{t('blocked.title', { username: profile.username })}</h2>
            <p>{t('blocked.text')}</p>
          </EmptyState>
        ) : tab === 'posts' ? (
          <PostList
            layout="grid"
            source={{ kind: 'user', username: profile.username }}
            empty={
              <EmptyState>
                <Icon name="image" size={32} />
                <h2>{t('noPosts.title')}</h2>
                <p>
                  {!isMe
                    ? t('noPosts.theirs', { username: profile.username })
                    : profile.movedTo
                      ? t('noPosts.moved')
                      : t('noPosts.mine')}
                </p>
                {isMe && !profile.movedTo && (
                  <Button onClick={() => dispatch(editorOpened(null))}>
                    <Icon name="plus" size={18} /> {t('noPosts.createPost')}
                  </Button>
                )}
              </EmptyState>
            }
          />
        ) : (
          <Suspense fallback={<ConnectionSkeleton />}>
            <ConnectionList key={tab} username={profile.username} kind={tab} />
          </Suspense>
        )}
      </Body>
    </>
  );
}
