import { useRouter } from 'next/router';
import { useDeferredValue, useEffect } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { firstLoadKey, useTakeFirstLoad } from '../../../store/firstLoad';
import { postCleared } from '../state/currentPost';
import { selectCurrentPost } from '../state/selectors';
import { fetchPost } from '../state/thunks';
import { CommentForm } from './comments/CommentForm';
import { CommentList } from './comments/CommentList';
import { Icon } from '../../../components/ui/Icon';
import { PageContainer } from '../../../components/ui/Panel';
import { PostCard, PostCardSkeleton } from './PostCard';
import { EmptyState } from '../../../components/ui/EmptyState';
import { WayForward } from '../../../components/ui/WayForward';
import { appTheme } from '../../../themes';
import { links } from '../../../lib/pages';

const Comments = styled.section`
  margin-top: 20px;
  padding: 16px 18px;
  border-radius: ${appTheme.radius.lg};
  background: ${appTheme.color.surface};
  border: 1px solid ${appTheme.color.border};
  h2 { font-size: 17px; }
  scroll-margin-top: calc(var(--navbar-height) + 16px);
`;

/** A post from another server: where the original is. */
const Original = styled.p`
  margin: 10px 2px 0;
  font-size: 14px;
  color: ${appTheme.color.textMuted};
  a { color: inherit; text-decoration: underline; }
`;

/**
 * `/post/ID#comments` (a comment's or a mention's notification): the browser scrolls to the section
 * when the server's HTML has it, but after a client-side navigation the post is read first and the
 * section appears later, past the router's own scroll to the hash. So the section, once there,
 * brings itself into view when the address points at it.
 */
const scrollIntoViewIfTarget = (section: HTMLElement | null) => {
  if (section && window.location.hash === `#${section.id}`) section.scrollIntoView();
};

export function PostDetail({ id }: { id: string }) {
  const t = useTranslations('posts');
  const dispatch = useAppDispatch();
  const router = useRouter();
  // Transition priority: the post and its comments render in short, interruptible tasks.
  const { post, loading, error } = useDeferredValue(useAppSelector(selectCurrentPost));

  const takeFirstLoad = useTakeFirstLoad();

  useEffect(() => {
    // The server rendered the page with this post already: no second read on the first mount.
    if (!takeFirstLoad(firstLoadKey.post(id))) void dispatch(fetchPost(id));
    return () => {
      dispatch(postCleared());
    };
  }, [dispatch, id, takeFirstLoad]);

  if (error && !post) {
    return (
      <PageContainer $width={620}>
        <h1 className="visually-hidden">{t('detail.heading')}</h1>
        <EmptyState role="alert">
          <Icon name="alert" size={32} />
          <h2>{t('detail.unavailable')}</h2>
          <p>{error}</p>
          <WayForward />
        </EmptyState>
      </PageContainer>
    );
  }

  if (!post || post._id !== id) {
    return (
      <PageContainer $width={620} aria-busy={loading}>
        <h1 className="visually-hidden">{t('detail.heading')}</h1>
        <PostCardSkeleton />
      </PageContainer>
    );
  }

  return (
    <PageContainer $width={620}>
      <h1 className="visually-hidden">{t('detail.headingBy', { author: post.creator })}</h1>
      <PostCard post={post} standalone priority onDeleted={() => void router.push(links.home())} />
      {post.originalUrl && (
        <Original>
          {t.rich('detail.original', {
            link: (chunks) => (
              <a href={post.originalUrl} rel="noopener noreferrer nofollow">
                {chunks}
              </a>
            ),
          })}
        </Original>
      )}
      <Comments id="comments" aria-labelledby="comments-title" ref={scrollIntoViewIfTarget}>
        <h2 id="comments-title">
          {t.rich('detail.comments', {
            count: post.commentsCount,
            dot: (chunks) => <span aria-hidden="true">{chunks}</span>,
          })}
        </h2>
        <CommentForm postId={post._id} />
        <CommentList postId={post._id} postCreator={post.creator} comments={post.comments} />
      </Comments>
    </PageContainer>
  );
}
