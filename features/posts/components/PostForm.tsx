import { useFormik } from 'formik';
import { postsOf } from '../state/postsSlice';
import {
  Suspense,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { useTranslations } from 'use-intl/react';
import { AUDIENCES, type Audience } from '../../../lib/audience';
import { useAudienceTexts } from './AudienceLabel';
import { CropPicker } from './CropPicker';
import styled from 'styled-components';
import { string, ValidationError } from 'yup';
import { MESSAGE_MAX, SPOILER_MAX, TAG_MAX, TAGS_PER_POST_MAX } from '../../../lib/limits';
import type { Post, PostImage } from '../../../lib/types';
import { CENTRE_CROP, type PhotoCrop } from '../../../lib/photoCrop';
import { hashtagTags } from '../../../lib/textEntities';
import { normalizeTag, tagRule } from '../../../lib/validation';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { editorClosed } from '../state/editor';
import { createPost, editPost } from '../state/thunks';
import {
  PhotoList,
  photoAdopted,
  photoCropChanged,
  photosCleared,
  photosLoaded,
  selectPhotos,
  selectPhotosBusy,
  selectPhotosReady,
  selectUpload,
  uploadReset,
  type PhotoItem,
} from '../../uploads';
import { selectUser } from '../../auth';
import { Button } from '../../../components/ui/Button';
import { Spinner } from '../../../components/ui/Spinner';
import { TagList } from '../../../components/ui/TagList';
import { FieldWrap } from '../../../components/ui/TextField';
import { appTheme } from '../../../themes';
import { MentionSuggestions } from '../../mentions';

const Form = styled.form`
  display: grid;
  gap: 18px;
  padding: 4px 20px 20px;
`;

const Check = styled.div`
  display: flex;
  align-items: center;
  gap: 8px;
  font-size: 14px;
  input { width: 18px; height: 18px; accent-color: ${appTheme.color.accent}; }
`;

const Row = styled.div`
  display: flex;
  justify-content: space-between;
  gap: 8px;
  font-size: 13px;
  color: ${appTheme.color.textMuted};
`;

/** The message field and the mention list under it. */
const MessageBox = styled.div`
  position: relative;
`;

const TagRow = styled.div`
  display: flex;
  gap: 8px;
  align-items: center;
  input { flex: 1; min-width: 0; }
  button { flex: none; min-height: 42px; }
`;

export const FieldError = styled.p`
  margin: 0;
  font-size: 13px;
  color: ${appTheme.color.danger};
`;

interface PostFormProps {
  /** The post being edited, or null to create one. */
  post: Post | null;
  /** Set to a function telling whether the form holds changes (the editor asks before closing). */
  hasChangesRef?: RefObject<() => boolean>;
}

const schemaError = (validate: () => unknown): string | null => {
  try {
    validate();
    return null;
  } catch (error) {
    return error instanceof ValidationError ? error.message : String(error);
  }
};

/** A post of before albums, without `images`: its one photo. */
const postPhoto = (post: Post): PostImage => ({
  image: post.image,
  imageInfo: post.imageInfo,
  alt: post.alt ?? '',
  crop: post.crop ?? CENTRE_CROP,
});

/** What an edit would send of the photos, to tell whether they changed. */
const photosKey = (photos: readonly { image: string | null; alt: string; crop: PhotoCrop }[]) =>
  JSON.stringify(photos.map(({ image, alt, crop }) => [image, alt.trim(), crop]));
const listKey = (photos: readonly PhotoItem[]) => photosKey(photos.map((photo) => ({ ...photo, image: photo.url })));

/** From this many characters left on, the count is also announced to screen readers. */
const MESSAGE_WARN_LEFT = 20;

/** Create or edit a post: image, message and tags; Publish (or Edit) once an image and a tag (or a message's #hashtag) exist. */
export function PostForm({ post, hasChangesRef }: PostFormProps) {
  const t = useTranslations('posts');
  const audienceTexts = useAudienceTexts();
  // Built when the form is, in the reader's language (the spec's one text for empty and too long).
  const messageSchema = useMemo(
    () => string().trim().required(t('form.messageRequired')).max(MESSAGE_MAX, t('form.messageRequired')),
    [t],
  );
  const charactersLeftText = (count: number) => t('form.charactersLeft', { count });
  const dispatch = useAppDispatch();
  const upload = useAppSelector(selectUpload('post'));
  const creating = useAppSelector((state) => postsOf(state).create.status === 'loading');
  const editing = useAppSelector((state) => postsOf(state).edit.status === 'loading');
  const defaultAudience = useAppSelector(selectUser)?.defaultAudience ?? 'public';
  const id = useId();
  const [tagInput, setTagInput] = useState('');
  const [tagError, setTagError] = useState<string | null>(null);
  // Why the spec's bare "Please enter a tag " was said (issue 68, item 17), beside it.
  const [tagReason, setTagReason] = useState<string | null>(null);

  const photos = useAppSelector(selectPhotos);
  const photosReady = useAppSelector(selectPhotosReady);
  const photosBusy = useAppSelector(selectPhotosBusy);

  // The list starts as the edited post's photos, or empty for a new post.
  // (Once: the form is remade, by its key, when the post is.)
  const startingPost = useRef(post);
  useEffect(() => {
    const edited = startingPost.current;
    if (edited) dispatch(photosLoaded(edited.images?.length ? edited.images : [postPhoto(edited)]));
    else dispatch(photosCleared());
  }, [dispatch]);

  // An image shared to the app (SharedImageOpener) uploads into the single `post` slot: it joins the list.
  useEffect(() => {
    if (!upload.url) return;
    dispatch(photoAdopted({ url: upload.url, info: upload.info }));
    dispatch(uploadReset('post'));
  }, [dispatch, upload.url, upload.info]);

  const formik = useFormik({
    initialValues: {
      message: post?.message ?? '',
      tags: post?.tags ?? ([] as string[]),
      sensitive: post?.sensitive ?? false,
      spoiler: post?.spoiler ?? '',
      audience: post?.audience ?? defaultAudience,
    },
    validate: (values) => {
      const message = schemaError(() => messageSchema.validateSync(values.message));
      return message ? { message } : {};
    },
    onSubmit: async (values, helpers) => {
      if (!photosReady) return;
      const input = {
        message: values.message.trim(),
        images: photos.map((photo) => ({ image: photo.url ?? '', alt: photo.alt.trim(), crop: photo.crop })),
        tags: values.tags,
        sensitive: values.sensitive,
        spoiler: values.sensitive ? values.spoiler.trim() : '',
        audience: values.audience,
      };
      const result = post ? await dispatch(editPost({ id: post._id, post: input })) : await dispatch(createPost(input));
      if (result.meta.requestStatus !== 'fulfilled') return;
      helpers.resetForm();
      setTagInput('');
      dispatch(photosCleared());
      dispatch(editorClosed());
    },
  });

  // The server's rules (lib/validation.ts): a tag it would refuse is refused here, at Enter.
  const addTag = () => {
    const tag = normalizeTag(tagInput);
    const problem = tagRule(tag)?.rule ?? null;
    // The reason behind the spec's "Please enter a tag ": nothing typed, or more than the limit.
    setTagReason(
      problem === 'tagRequired'
        ? tag.length > TAG_MAX
          ? t('form.tagTooLong', { max: TAG_MAX })
          : t('form.tagEmpty')
        : null,
    );
    if (problem) {
      setTagError(
        problem === 'tagRequired'
          ? t('form.tagRequired')
          : problem === 'tagPattern'
            ? t('form.tagCharacters')
            : t('form.tagTooLongLowerCase', { max: TAG_MAX }),
      );
      return;
    }
    setTagError(null);
    setTagInput('');
    const tags = formik.values.tags;
    if (tags.some((t) => t.toLowerCase() === tag.toLowerCase())) return;
    if (tags.length >= TAGS_PER_POST_MAX) {
      setTagError(t('form.tooManyTags', { max: TAGS_PER_POST_MAX }));
      return;
    }
    void formik.setFieldValue('tags', [...tags, tag]);
  };

  const onTagKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    addTag();
  };

  const photosChanged = post ? listKey(photos) !== photosKey(post.images ?? [postPhoto(post)]) : photos.length > 0;
  const changed = formik.dirty || tagInput.trim() !== '' || upload.loading || photosChanged;
  useEffect(() => {
    if (!hasChangesRef) return;
    hasChangesRef.current = () => changed;
    return () => {
      hasChangesRef.current = () => false;
    };
  }, [hasChangesRef, changed]);

  const busy = creating || editing || upload.loading || photosBusy || formik.isSubmitting;
  const charactersLeft = MESSAGE_MAX - formik.values.message.length;
  // A `#hashtag` in the message is a tag too (the server adds it: lib/textEntities).
  const canSubmit = photosReady && (formik.values.tags.length > 0 || hashtagTags(formik.values.message).length > 0);
  const messageField = useRef<HTMLTextAreaElement>(null);
  // The mention list's code loads at the first `@` and stays (issue 68, item 31).
  const [mentions, setMentions] = useState(false);
  if (!mentions && formik.values.message.includes('@')) setMentions(true);
  const messageError = formik.touched.message || formik.submitCount > 0 ? formik.errors.message : undefined;

  // The chosen photo's crop (the only one's, in a one-photo post), where feeds crop it.
  const renderCrop = useCallback(
    (photo: PhotoItem) =>
      photo.url && photo.info ? (
        <CropPicker
          id={`${id}-${photo.key}`}
          src={photo.url}
          width={photo.info.width}
          height={photo.info.height}
          crop={photo.crop}
          onChange={(crop) => dispatch(photoCropChanged({ key: photo.key, crop }))}
        />
      ) : null,
    [dispatch, id],
  );

  return (
    <Form onSubmit={formik.handleSubmit} noValidate aria-busy={busy}>
      <PhotoList hintId={`${id}-hint`} keepOne={Boolean(post)} renderCrop={renderCrop} />

      <FieldWrap>
        <label htmlFor={`${id}-message`}>{t('form.message')}</label>
        <MessageBox>
          <textarea
            ref={messageField}
            id={`${id}-message`}
            name="message"
            value={formik.values.message}
            onChange={formik.handleChange}
            onBlur={formik.handleBlur}
            placeholder={t('form.messagePlaceholder')}
            maxLength={MESSAGE_MAX}
            aria-invalid={Boolean(messageError)}
            aria-describedby={`${id}-message-meta`}
          />
          {mentions && (
            <Suspense fallback={null}>
              <MentionSuggestions field={messageField} />
            </Suspense>
          )}
        </MessageBox>
        <Row id={`${id}-message-meta`}>
          {messageError ? <FieldError role="alert">{messageError}</FieldError> : <span />}
          <span>{charactersLeftText(charactersLeft)}</span>
        </Row>
        {/* Announced only near the limit, not at every keystroke. */}
        <span className="visually-hidden" aria-live="polite">
          {charactersLeft <= MESSAGE_WARN_LEFT ? charactersLeftText(charactersLeft) : ''}
        </span>
      </FieldWrap>

      <Check>
        <input
          id={`${id}-sensitive`}
          type="checkbox"
          name="sensitive"
          checked={formik.values.sensitive}
          onChange={formik.handleChange}
        />
        <label htmlFor={`${id}-sensitive`}>{t('form.sensitive')}</label>
      </Check>
      {formik.values.sensitive && (
        <FieldWrap>
          <label htmlFor={`${id}-spoiler`}>{t('form.spoiler')}</label>
          <input
            id={`${id}-spoiler`}
            name="spoiler"
            value={formik.values.spoiler}
            onChange={formik.handleChange}
            placeholder={t('form.spoilerPlaceholder')}
            maxLength={SPOILER_MAX}
            autoComplete="off"
            aria-describedby={`${id}-spoiler-meta`}
          />
          <Row id={`${id}-spoiler-meta`}>
            <span />
            <span>{charactersLeftText(SPOILER_MAX - formik.values.spoiler.length)}</span>
          </Row>
        </FieldWrap>
      )}

      <FieldWrap>
        <label htmlFor={`${id}-tag`}>{t('form.tags')}</label>
        {/* Add is the visible way where Enter is not (a phone's keyboard; issue 68, item 19). */}
        <TagRow>
          <input
            id={`${id}-tag`}
            value={tagInput}
            onChange={(event) => setTagInput(event.target.value)}
            onKeyDown={onTagKey}
            placeholder={t('form.tagPlaceholder')}
            autoComplete="off"
            enterKeyHint="done"
            aria-invalid={Boolean(tagError)}
            aria-describedby={`${id}-tag-meta`}
          />
          <Button type="button" $variant="secondary" $size="sm" onClick={addTag} aria-label={t('form.addTagLabel')}>
            {t('form.addTag')}
          </Button>
        </TagRow>
        <div id={`${id}-tag-meta`}>
          {tagError && <FieldError role="alert">{tagError}</FieldError>}
          {tagError && tagReason && <FieldError data-testid="tag-reason">{tagReason}</FieldError>}
        </div>
        {formik.values.tags.length > 0 && (
          <TagList
            tags={formik.values.tags}
            label={t('form.addedTags')}
            onRemove={(tag) =>
              void formik.setFieldValue(
                'tags',
                formik.values.tags.filter((t) => t !== tag),
              )
            }
          />
        )}
      </FieldWrap>

      <FieldWrap>
        <label htmlFor={`${id}-audience`}>{t('form.audience')}</label>
        <select
          id={`${id}-audience`}
          name="audience"
          value={formik.values.audience}
          onChange={formik.handleChange}
          aria-describedby={`${id}-audience-hint`}
        >
          {AUDIENCES.map((audience) => (
            <option key={audience} value={audience}>
              {audienceTexts[audience].label}
            </option>
          ))}
        </select>
        <Row id={`${id}-audience-hint`}>
          <span>{audienceTexts[formik.values.audience as Audience].hint}</span>
        </Row>
      </FieldWrap>

      <Button type="submit" $block disabled={!canSubmit || busy} aria-busy={busy}>
        {busy && <Spinner />}
        {post ? t('form.edit') : t('form.publish')}
      </Button>
    </Form>
  );
}
