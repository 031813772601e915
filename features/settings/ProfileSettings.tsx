import { useFormik } from 'formik';
import { useEffect } from 'react';
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

// minmax(0, ...): the banner's zone (3:1, at least as tall as the avatar's) takes its column's
// width, and never widens the column to 3 times its minimum height.
const Images = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 16px;
  @media (min-width: 600px) { grid-template-columns: auto minmax(0, 1fr); align-items: start; }
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
    onSubmit: async (values) => {
      const result = await dispatch(
        updateProfile({
          avatar: avatar.url ?? user.avatar,
          banner: banner.url ?? user.banner,
          description: values.description,
        }),
      );
      if (updateProfile.fulfilled.match(result)) {
        dispatch(uploadReset('avatar'));
        dispatch(uploadReset('banner'));
      }
    },
  });

  const uploading = avatar.loading || banner.loading;

  // Remove: drops a fresh upload, and the saved image with `null` (API.md, updateProfile).
  const remove = (kind: 'avatar' | 'banner') => async () => {
    dispatch(uploadReset(kind));
    if (user[kind]) await dispatch(updateProfile(kind === 'avatar' ? { avatar: null } : { banner: null }));
  };

  return (
    <Panel aria-labelledby="profile-settings">
      <h2 id="profile-settings">Profile</h2>
      <p className="lead">How others see you on Posts.</p>
      <form onSubmit={formik.handleSubmit} noValidate>
        <Stack $gap={20}>
          <Images>
            <div>
              <h3>Avatar</h3>
              <ImageDropzone
                kind="avatar"
                label="Avatar"
                shape="round"
                preview={avatar.url ?? user.avatar}
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
                preview={banner.url ?? user.banner}
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
