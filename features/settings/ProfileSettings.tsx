import { useFormik } from 'formik';
import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { DESCRIPTION_MAX } from '../../lib/limits';
import { profileSchema } from '../../lib/schemas';
import type { User } from '../../lib/types';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { selectAuth, updateProfile } from '../auth';
import { ImageDropzone, selectUpload, uploadReset } from '../uploads';
import { Button } from '../../components/ui/Button';
import { Panel, Stack } from '../../components/ui/Panel';
import { Spinner } from '../../components/ui/Spinner';
import { TextAreaField } from '../../components/ui/TextField';
import { SETTINGS_SECTIONS } from './sections';
import { useLeaveGuard } from './useLeaveGuard';

// The banner sits beside the avatar only where it has room for its two buttons and its hint on one
// line each (360px), else under it, whatever the page's width (a breakpoint left it ~190px wide at
// 800px, beside the sidebar). min-width 0: its 3:1 zone takes the width it is given, never widens it;
// inline-size containment: the banner's 360px basis never widens the page on a phone either.
const Images = styled.div`
  contain: inline-size;
  display: flex;
  flex-wrap: wrap;
  align-items: flex-start;
  gap: 16px;
  > * { min-width: 0; }
  > :last-child { flex: 1 1 360px; }
  h3 { font-size: 14px; margin-bottom: 8px; }
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
`;

export function ProfileSettings({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const { loading } = useAppSelector(selectAuth).updateProfile;
  const avatar = useAppSelector(selectUpload('avatar'));
  const banner = useAppSelector(selectUpload('banner'));
  // Images the user removed: like the rest of the form, the removal is saved by "Save profile".
  const [removed, setRemoved] = useState({ avatar: false, banner: false });
  /** What the form holds for the image: a fresh upload, else the saved one unless removed. */
  const shown = (kind: 'avatar' | 'banner') => {
    const fresh = (kind === 'avatar' ? avatar : banner).url;
    return fresh ?? (removed[kind] ? null : user[kind]);
  };

  useEffect(
    () => () => {
      dispatch(uploadReset('avatar'));
      dispatch(uploadReset('banner'));
    },
    [dispatch],
  );

  const formik = useFormik({
    initialValues: { description: user.description ?? '' },
    validationSchema: profileSchema,
    onSubmit: async (values, { resetForm }) => {
      const result = await dispatch(
        updateProfile({ avatar: shown('avatar'), banner: shown('banner'), description: values.description }),
      );
      if (updateProfile.fulfilled.match(result)) {
        dispatch(uploadReset('avatar'));
        dispatch(uploadReset('banner'));
        setRemoved({ avatar: false, banner: false });
        // Saved: the form's starting point, so it is no longer "unsaved".
        resetForm({ values });
      }
    },
  });

  const uploading = avatar.loading || banner.loading;
  // Anything staged for "Save profile" (a removal, a fresh image, the description) is not left unsaved without a word.
  const unsaved = removed.avatar || removed.banner || Boolean(avatar.url) || Boolean(banner.url) || formik.dirty;
  useLeaveGuard(unsaved);

  // Remove: drops a fresh upload and the saved image from the form; Save sends `null` (API.md, updateProfile).
  const remove = (kind: 'avatar' | 'banner') => () => {
    dispatch(uploadReset(kind));
    setRemoved((was) => ({ ...was, [kind]: true }));
  };

  return (
    <Panel id={SETTINGS_SECTIONS.profile} aria-labelledby="profile-settings">
      <h2 id="profile-settings">Profile</h2>
      <p className="lead">How others see you on Posts.</p>
      <form onSubmit={formik.handleSubmit} noValidate data-unsaved={unsaved}>
        <Stack $gap={20}>
          <Images>
            <div>
              <h3>Avatar</h3>
              <ImageDropzone
                kind="avatar"
                label="Avatar"
                shape="round"
                preview={shown('avatar')}
                hintId="avatar-hint"
                onRemove={remove('avatar')}
                removing={loading}
              />
            </div>
            <div>
              <h3>Banner</h3>
              <ImageDropzone
                kind="banner"
                label="Banner"
                shape="wide"
                preview={shown('banner')}
                hintId="banner-hint"
                onRemove={remove('banner')}
                removing={loading}
              />
            </div>
          </Images>
          <TextAreaField
            label="Description"
            hint={`${formik.values.description.length}/${DESCRIPTION_MAX}`}
            {...formik.getFieldProps('description')}
            error={formik.errors.description}
          />
          <Actions>
            <Button type="submit" disabled={loading || uploading} aria-busy={loading}>
              {loading && <Spinner />} Save profile
            </Button>
          </Actions>
        </Stack>
      </form>
    </Panel>
  );
}
