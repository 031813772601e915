import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { POST_FORM_MAX_WIDTH_PX } from '../../../lib/limits';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { editorClosed } from '../state/editor';
import { selectEditor } from '../state/editor';
import { selectCurrentPost } from '../state/selectors';
import { fetchPost } from '../state/thunks';
import { photosCleared, selectPhotos, uploadReset } from '../../uploads';
import { selectUser } from '../../auth';
import { IconButton } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { PostForm } from './PostForm';
import { appTheme } from '../../../themes';

const Head = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  padding-block: 14px 10px;
  padding-inline: 20px 12px;
  h2 { font-size: 18px; }
`;

const LoadError = styled.p`
  margin: 0;
  padding: 8px 20px 28px;
  color: ${appTheme.color.danger};
`;

/** The create/edit post modal (loaded lazily when opened). */
export default function PostEditor() {
  const t = useTranslations('posts');
  const dispatch = useAppDispatch();
  const { post } = useAppSelector(selectEditor);
  const current = useAppSelector(selectCurrentPost);
  const postId = post?._id;
  const movedTo = useAppSelector(selectUser)?.movedTo;
  const photoCount = useAppSelector(selectPhotos).length;

  useEffect(() => {
    // Editing works on the server's latest copy of the post (which replaces the stored one).
    if (postId) void dispatch(fetchPost(postId));
  }, [dispatch, postId]);

  // Set by the form: whether it holds changes (a message, tags, an image) that closing would lose.
  const hasChangesRef = useRef<() => boolean>(() => false);
  const [confirming, setConfirming] = useState(false);

  const discard = () => {
    dispatch(uploadReset('post'));
    dispatch(photosCleared());
    dispatch(editorClosed());
  };
  // Escape, the backdrop and the close button ask first when there is something to lose.
  const close = () => {
    if (hasChangesRef.current()) setConfirming(true);
    else discard();
  };

  const loadError = post && current.error && !current.loading ? current.error : null;

  return (
    <>
      <Modal onClose={close} labelledBy="post-editor-title" width={POST_FORM_MAX_WIDTH_PX}>
        <Head>
          <h2 id="post-editor-title">{post ? t('editor.edit') : t('editor.create')}</h2>
          <IconButton aria-label={t('close')} onClick={close}>
            <Icon name="close" />
          </IconButton>
        </Head>
        {loadError ? (
          <LoadError role="alert">{loadError}</LoadError>
        ) : movedTo && !post ? (
          // A moved account takes no new posts (issue 76): no form to fill in vain.
          <LoadError role="alert">{t('editor.moved', { username: movedTo.username })}</LoadError>
        ) : (
          <PostForm key={post?.updatedAt ?? 'new'} post={post} hasChangesRef={hasChangesRef} />
        )}
      </Modal>
      {confirming && (
        <ConfirmDialog
          title={post ? t('editor.discardChangesTitle') : t('editor.discardPostTitle')}
          message={
            post
              ? t('editor.changesLost')
              : // The spec's words for one image (none yet counts as one); an album's photos are several.
                t('editor.postLost', { photos: Math.max(photoCount, 1) })
          }
          confirmLabel={t('editor.discard')}
          onCancel={() => setConfirming(false)}
          onConfirm={discard}
        />
      )}
    </>
  );
}
