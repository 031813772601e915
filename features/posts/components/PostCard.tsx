import { lazy, Suspense, useState } from 'react';
import { postsOf } from '../state/postsSlice';
import { createPortal } from 'react-dom';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { AppLink } from '../../../components/ui/AppLink';
import type { Post } from '../../../lib/types';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { selectUser } from '../../auth';
import { ReportButton } from '../../moderation';
import { editorOpened } from '../state/editor';
import { deletePost, dislikePost, likePost } from '../state/thunks';
import { Avatar } from '../../../components/ui/Avatar';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Icon } from '../../../components/ui/Icon';
import { AudienceLabel } from './AudienceLabel';
import { PersonName } from '../../../components/ui/PersonName';
import { MentionText } from '../../../components/ui/MentionText';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { Skeleton } from '../../../components/ui/Skeleton';
import { TagList } from '../../../components/ui/TagList';
import { PostPhotos } from './PostPhotos';
import { ShareButton } from '../../share';
import { ReactionBar } from './ReactionBar';
import { SaveButton } from './SaveButton';
import { appTheme } from '../../../themes';
import { links } from '../../../lib/pages';

// Who likes the post: its own chunk, loaded when the likes count is pressed.
const LikersDialog = lazy(() => import('./LikersDialog'));

export const Card = styled.article`
  background: ${appTheme.color.surface};
  border: 1px solid ${appTheme.color.border};
  border-radius: ${appTheme.radius.lg};
  overflow: hidden;
`;

/** Above the header: the followed tag that brought the post to the home feed. */
const Reason = styled.p`
  display: flex;
  align-items: center;
  gap: 6px;
  margin: 0;
  padding: 10px 14px 0;
  font-size: 13px;
  color: ${appTheme.color.textMuted};
  overflow-wrap: anywhere;
  a { color: inherit; font-weight: 600; }
`;

const Header = styled.header`
  display: flex;
  align-items: center;
  gap: 10px;
  padding: 12px 14px;
`;

const Byline = styled.div`
  flex: 1;
  min-width: 0;
  display: flex;
  flex-direction: column;
  a {
    color: ${appTheme.color.text};
    font-weight: 700;
    text-decoration: none;
    /* A name from elsewhere breaks before its server rather than losing it to an ellipsis; beside
       Report and Delete at 375 px the server fits its line a size smaller. */
    overflow-wrap: anywhere;
    .host { font-size: 13px; font-weight: 600; }
    .handle { font-size: 13px; font-weight: 400; color: ${appTheme.color.textMuted}; }
    .handle .host { font-weight: 400; }
  }
  a:hover { text-decoration: underline; }
  time { font-size: 13px; color: ${appTheme.color.textMuted}; }
`;

/** The post's time and its audience, on one line under the name. */
const When = styled.span`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 2px 8px;
`;

/** An imported post keeps its original date: this says why it is that old (issue 76). */
const Imported = styled.span`
  font-size: 13px;
  color: ${appTheme.color.textMuted};
`;

const OwnerActions = styled.div`
  display: flex;
  gap: 2px;
  button {
    display: inline-flex;
    align-items: center;
    gap: 6px;
    height: 32px;
    padding: 0 10px;
    border: none;
    border-radius: ${appTheme.radius.pill};
    background: transparent;
    color: ${appTheme.color.textMuted};
    font-size: 13px;
    font-weight: 600;
    cursor: pointer;
    &:hover { background: ${appTheme.color.surfaceRaised}; color: ${appTheme.color.text}; }
  }
  /* Icons only on narrow screens, so a long username keeps its room. */
  @media (max-width: 479px) {
    button { width: 36px; padding: 0; justify-content: center; }
    button span { display: none; }
    button.text { width: auto; padding: 0 10px; }
    button.text span { display: inline; }
  }
`;

const Body = styled.div`
  padding: 10px 14px 16px;
`;

const Actions = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 8px;
  margin: 0 -6px 6px;
`;

const End = styled.div`
  display: flex;
  align-items: center;
  gap: 2px;
`;

const CommentLink = styled(AppLink)`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  min-height: 36px;
  padding: 0 12px;
  border-radius: ${appTheme.radius.pill};
  color: ${appTheme.color.text};
  font-size: 14px;
  font-weight: 600;
  text-decoration: none;
  &:hover { background: ${appTheme.color.surfaceRaised}; }
`;

const Message = styled.p`
  margin: 0 0 10px;
  a.mention { font-weight: 600; }
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;

interface PostCardProps {
  post: Post;
  priority?: boolean;
  /** On the post's own page the image is not a link to itself. */
  standalone?: boolean;
  onDeleted?: () => void;
  /** The home feed: a post a followed tag brought says so (`post.reason`, issue 73). */
  showReason?: boolean;
}

export function PostCard({ post, priority, standalone, onDeleted, showReason }: PostCardProps) {
  const t = useTranslations('posts');
  const dispatch = useAppDispatch();
  const me = useAppSelector(selectUser);
  const deleting = useAppSelector((state) => postsOf(state).delete.status === 'loading');
  const [confirming, setConfirming] = useState(false);
  const [showingLikers, setShowingLikers] = useState(false);
  const mine = me?.username === post.creator;
  // Admins may delete any post (API.md, Roles); only its creator may edit it.
  const mayDelete = mine || me?.role === 'admin';
  const profileHref = links.profile(post.creator);
  const postHref = links.post(post._id);
  const reason = post.reason;
  // Where an imported post came from (`Post.importedFrom`), as its card says it.
  const importedFrom =
    post.importedFrom === 'instagram'
      ? t('card.importedInstagram')
      : post.importedFrom === 'posts'
        ? t('card.importedPosts')
        : null;

  return (
    <Card aria-labelledby={`post-${post._id}-by`}>
      {showReason && reason && (
        <Reason>
          <Icon name="hash" size={14} />
          <span>
            {t.rich('card.reason', {
              tag: reason.tag,
              link: (chunks) => <AppLink href={links.tagged([reason.tag])}>{chunks}</AppLink>,
            })}
          </span>
        </Reason>
      )}
      <Header>
        <AppLink href={profileHref} tabIndex={-1} aria-hidden="true">
          <Avatar src={post.creatorImage} name={post.creator} size={38} />
        </AppLink>
        <Byline>
          <AppLink href={profileHref} id={`post-${post._id}-by`}>
            <PersonName username={post.creator} displayName={post.creatorName} />
          </AppLink>
          <When>
            <RelativeTime iso={post.createdAt} />
            <AudienceLabel audience={post.audience} />
            {importedFrom && <Imported>{importedFrom}</Imported>}
          </When>
        </Byline>
        {me && (mayDelete || !mine) && (
          <OwnerActions>
            {!mine && (
              <ReportButton
                className="text"
                targetType="post"
                targetId={post._id}
                label={t('card.report', { author: post.creator })}
              />
            )}
            {mine && (
              <button type="button" onClick={() => dispatch(editorOpened(post))} aria-label={t('card.editLabel')}>
                <Icon name="edit" size={16} />
                <span aria-hidden="true">{t('card.edit')}</span>
              </button>
            )}
            {mayDelete && (
              <button type="button" onClick={() => setConfirming(true)} aria-label={t('card.deleteLabel')}>
                <Icon name="trash" size={16} />
                <span aria-hidden="true">{t('card.delete')}</span>
              </button>
            )}
          </OwnerActions>
        )}
      </Header>
      <PostPhotos
        post={post}
        priority={priority}
        standalone={standalone}
        liked={post.myReaction === 'like'}
        onLike={() => dispatch(likePost(post._id))}
      />
      <Body>
        <Actions>
          <ReactionBar
            subject="post"
            likes={post.likesCount}
            dislikes={post.dislikesCount}
            mine={post.myReaction}
            onLike={() => dispatch(likePost(post._id))}
            onDislike={() => dispatch(dislikePost(post._id))}
            onShowLikes={() => setShowingLikers(true)}
          />
          <End>
            <CommentLink href={`${postHref}#comments`} aria-label={t('card.comments', { count: post.commentsCount })}>
              <Icon name="comment" size={18} />
              <span aria-hidden="true">{post.commentsCount}</span>
            </CommentLink>
            <ShareButton
              path={postHref}
              title={t('card.shareTitle', { author: post.creator })}
              label={t('card.shareLabel', { author: post.creator })}
            />
            {me && <SaveButton postId={post._id} saved={post.savedByMe === true} />}
          </End>
        </Actions>
        {post.message && (
          <Message dir="auto">
            <MentionText text={post.message} mentions={post.mentions} tags={post.tags} />
          </Message>
        )}
        {post.tags.length > 0 && <TagList tags={post.tags} label={t('card.tags')} />}
      </Body>
      {showingLikers &&
        createPortal(
          <Suspense fallback={null}>
            <LikersDialog postId={post._id} onClose={() => setShowingLikers(false)} />
          </Suspense>,
          document.body,
        )}
      {confirming && (
        <ConfirmDialog
          title={t('card.deleteTitle')}
          message={t('card.deleteMessage')}
          confirmLabel={t('card.delete')}
          busy={deleting}
          onCancel={() => setConfirming(false)}
          onConfirm={async () => {
            const result = await dispatch(deletePost(post._id));
            setConfirming(false);
            if (deletePost.fulfilled.match(result)) onDeleted?.();
          }}
        />
      )}
    </Card>
  );
}

const SkeletonCard = styled(Card)`
  .row { display: flex; align-items: center; gap: 10px; padding: 12px 14px; }
  .lines { display: grid; gap: 8px; padding: 14px; }
`;

export function PostCardSkeleton() {
  return (
    <SkeletonCard aria-hidden="true">
      <div className="row">
        <Skeleton $w="38px" $h="38px" $round />
        <div style={{ flex: 1, display: 'grid', gap: 6 }}>
          <Skeleton $w="30%" />
          <Skeleton $w="18%" $h="10px" />
        </div>
      </div>
      <Skeleton $h="auto" style={{ aspectRatio: '1 / 1', borderRadius: 0 }} />
      <div className="lines">
        <Skeleton $w="40%" $h="28px" />
        <Skeleton $w="85%" />
        <Skeleton $w="60%" />
      </div>
    </SkeletonCard>
  );
}
