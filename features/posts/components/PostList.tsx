import { startTransition, useDeferredValue, useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { postsOf } from '../state/postsSlice';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { AppLink } from '../../../components/ui/AppLink';
import { useInfiniteScroll } from '../../../hooks/useInfiniteScroll';
import { cameByHistory, forgetScrollRestore } from '../../../hooks/historyNavigation';
import { useStore } from 'react-redux';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import type { AppStore } from '../../../store/index';
import { firstLoadKey, useTakeFirstLoad } from '../../../store/firstLoad';
import { selectPostList } from '../state/selectors';
import { fetchMorePosts, fetchPosts, sourceKey, type PostSource } from '../state/thunks';
import { keptListFor, listLeft, listRestored } from '../state/list';
import { Button } from '../../../components/ui/Button';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { Skeleton } from '../../../components/ui/Skeleton';
import { Spinner } from '../../../components/ui/Spinner';
import { PostCard, PostCardSkeleton } from './PostCard';
import { useImageAlts } from './PostPhotos';
import { PostImage } from './PostImage';
import { appTheme } from '../../../themes';
import { overImage } from '../../../themes/fixed';
import { links } from '../../../lib/pages';
import type { Post } from '../../../lib/types';

const Feed = styled.div`
  display: grid;
  gap: 20px;
`;

const Grid = styled.ul`
  display: grid;
  grid-template-columns: repeat(3, 1fr);
  gap: 4px;
  margin: 0;
  padding: 0;
  list-style: none;
  @media (min-width: 768px) { gap: 12px; }
  a { display: block; position: relative; border-radius: 6px; overflow: hidden; }
  a:hover img { transform: scale(1.03); }
  img { transition: transform 0.2s ease; }
`;

const GridMeta = styled.span`
  position: absolute;
  inset-inline-start: 6px;
  bottom: 6px;
  display: inline-flex;
  align-items: center;
  gap: 4px;
  padding: 2px 8px;
  border-radius: ${appTheme.radius.pill};
  background: ${overImage.label};
  color: ${overImage.text};
  font-size: 12px;
  font-weight: 600;
`;

/** An album's mark on its grid tile (issue 71): the tile shows its first photo. */
const AlbumMark = styled.span`
  position: absolute;
  top: 6px;
  inset-inline-end: 6px;
  display: flex;
  color: ${overImage.text};
  filter: drop-shadow(0 1px 2px ${overImage.markShadow});
`;

const Footer = styled.div`
  display: flex;
  justify-content: center;
  padding: 24px 0 40px;
  color: ${appTheme.color.textMuted};
  font-size: 14px;
`;

/**
 * How many of `total` items to render: a first few at once, the rest a step per frame, so a
 * page of cards never blocks the main thread in one long task.
 */
function useProgressiveCount(total: number, key: string, step: number, restored: boolean): number {
  // A list Back brought again shows every post at once: the reader's place is far down it, and the
  // scroll is put back only once the page is tall enough (hooks/historyNavigation.ts).
  const [state, setState] = useState(() => ({ key, shown: restored ? Number.MAX_SAFE_INTEGER : step }));
  // Another list starts over from the first few. Reset while rendering (React renders again at once,
  // before committing): a count left under an old key would be taken up again should it return.
  if (state.key !== key) setState({ key, shown: step });
  const shown = state.key === key ? state.shown : step;
  useEffect(() => {
    if (shown >= total) return;
    // A transition, so React may split even a step's render into short tasks.
    const timer = setTimeout(() => startTransition(() => setState({ key, shown: shown + step })), 16);
    return () => clearTimeout(timer);
  }, [key, shown, step, total]);
  return shown;
}

/** A post of more than one photo (issue 71). */
const album = (post: Post) => (post.images?.length ?? 0) > 1;

/** Whose lists are kept: another account signed in in the same tab never gets them back. */
const viewerOf = (store: AppStore) => store.getState().auth.user?._id ?? null;

interface PostListProps {
  source: PostSource;
  layout?: 'feed' | 'grid';
  /** What to show when the list is empty. */
  empty: ReactNode;
}

/** A list of posts from one source, loading further pages as the reader nears the end. */
export function PostList({ source, layout = 'feed', empty }: PostListProps) {
  const t = useTranslations('posts');
  const { imageAlt } = useImageAlts();
  const dispatch = useAppDispatch();
  // Rendered at transition priority, which React splits into short tasks: a page of cards arriving
  // never blocks the main thread in one long task (a store update alone renders synchronously).
  const list = useDeferredValue(useAppSelector(selectPostList));
  const key = sourceKey(source);
  // Why a post is in the home feed when a followed tag brought it (issue 73): there alone.
  const showReasons = source.kind === 'feed' && source.feed === 'following';
  const takeFirstLoad = useTakeFirstLoad();
  const store = useStore.withTypes<AppStore>()();

  // Back (or Forward) to this list within KEPT_LIST_MS of leaving it: the list kept in the store, its
  // pages as they were, instead of page one read again (features/posts/state/list.ts). Decided on mount.
  const [restoredKey] = useState(() =>
    cameByHistory() && keptListFor(postsOf(store.getState()).kept, key, viewerOf(store), Date.now()) ? key : null,
  );

  // The key captures everything that identifies the source (a new `source` object on every render
  // of the parent is the same list): read again when the key changes, with the source as it is then.
  const readFirstPage = useEffectEvent((key: string, restore: boolean) => {
    // The server rendered the page with this list already: no second read on the first mount.
    if (takeFirstLoad(firstLoadKey.list(key))) return;
    // Only while the page is the one Back brought (a tab switched back to later reads afresh).
    if (restore && cameByHistory()) {
      dispatch(listRestored(key, viewerOf(store)));
      if (postsOf(store.getState()).list.key === key) return;
    }
    // Back to a list no longer kept: it starts at the top with its first page, read afresh.
    if (cameByHistory()) forgetScrollRestore();
    void dispatch(fetchPosts(source));
  });
  useEffect(() => {
    readFirstPage(key, key === restoredKey);
    // Leaving the list (for another key, or another page) keeps it for Back.
    return () => void dispatch(listLeft(key, viewerOf(store)));
  }, [key, restoredKey, dispatch, store]);

  const current = list.key === key;
  const shown = useProgressiveCount(
    current ? list.items.length : 0,
    key,
    layout === 'feed' ? 2 : 12,
    key === restoredKey,
  );
  const hasMore = current && Boolean(list.next);
  const allShown = shown >= list.items.length;
  const sentinel = useInfiniteScroll(
    () => void dispatch(fetchMorePosts()),
    hasMore && allShown && list.status === 'done',
  );
  const firstLoad = !current || (list.status === 'loading' && list.items.length === 0);

  if (firstLoad) {
    return layout === 'grid' ? (
      <Grid aria-hidden="true">
        {Array.from({ length: 6 }, (_, i) => (
          <li key={i}>
            <Skeleton $h="auto" style={{ aspectRatio: '1 / 1' }} />
          </li>
        ))}
      </Grid>
    ) : (
      <Feed aria-busy="true">
        <PostCardSkeleton />
        <PostCardSkeleton />
      </Feed>
    );
  }

  if (list.status === 'failed' && list.items.length === 0) {
    return (
      <EmptyState role="alert">
        <Icon name="alert" size={28} />
        <h2>{t('list.failed')}</h2>
        <p>{list.error}</p>
        <Button $variant="secondary" onClick={() => void dispatch(fetchPosts(source))}>
          {t('list.retry')}
        </Button>
      </EmptyState>
    );
  }

  if (list.items.length === 0) return <>{empty}</>;

  return (
    <>
      {layout === 'grid' ? (
        <Grid>
          {list.items.slice(0, shown).map((post) => (
            <li key={post._id}>
              <AppLink href={links.post(post._id)}>
                <PostImage
                  src={post.image}
                  info={post.imageInfo}
                  // The link's name: an album's tile shows its first photo, and says there are more.
                  alt={
                    album(post)
                      ? t('list.albumAlt', { alt: imageAlt(post), count: post.images.length })
                      : imageAlt(post)
                  }
                  sensitive={post.sensitive}
                  spoiler={post.spoiler}
                  revealable={false}
                  square
                  crop={post.crop}
                  sizes="(min-width: 768px) 300px, 33vw"
                />
                {album(post) && (
                  <AlbumMark aria-hidden="true" data-album-mark="">
                    <Icon name="album" size={20} />
                  </AlbumMark>
                )}
                <GridMeta aria-hidden="true">
                  <Icon name="like" size={12} /> {post.likesCount}
                  <Icon name="comment" size={12} /> {post.commentsCount}
                </GridMeta>
              </AppLink>
            </li>
          ))}
        </Grid>
      ) : (
        <Feed>
          {list.items.slice(0, shown).map((post, index) => (
            <PostCard key={post._id} post={post} priority={index === 0} showReason={showReasons} />
          ))}
        </Feed>
      )}
      <Footer ref={sentinel}>
        {list.status === 'loadingMore' ? (
          <span role="status">
            <Spinner /> <span className="visually-hidden">{t('list.loadingMore')}</span>
          </span>
        ) : hasMore ? (
          <Button $variant="secondary" $size="sm" onClick={() => void dispatch(fetchMorePosts())}>
            {t('loadMore')}
          </Button>
        ) : layout === 'grid' ? null : (
          // A feed's end; a profile's grid just ends (issue 68, item 14).
          <span>{t('list.caughtUp')}</span>
        )}
      </Footer>
    </>
  );
}
