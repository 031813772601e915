import { useFormik } from 'formik';
import { useEffect, useMemo, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { DESCRIPTION_MAX } from '../../../lib/limits';
import {
  DISPLAY_NAME_MAX,
  FIELD_NAME_MAX,
  FIELD_VALUE_MAX,
  PROFILE_FIELDS_MAX,
  displayNameError,
  normalizeDisplayName,
  readFields,
} from '../../../lib/profileFields';
import { profileSchema } from '../../../lib/schemas';
import type { User } from '../../../lib/types';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { selectAuth, updateProfile } from '../../auth';
import { ImageDropzone, selectUpload, uploadReset } from '../../uploads';
import { Button } from '../../../components/ui/Button';
import { Panel, Stack } from '../../../components/ui/Panel';
import { Spinner } from '../../../components/ui/Spinner';
import { appTheme } from '../../../themes';
import { TextAreaField, TextField } from '../../../components/ui/TextField';
import { SETTINGS_SECTIONS } from '../lib/sections';
import { useLeaveGuard } from '../hooks/useLeaveGuard';

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

/** The profile links: a label and a value on one line where there is room, the value wider. */
const Links = styled.fieldset`
  border: 0;
  padding: 0;
  margin: 0;
  display: grid;
  gap: 10px;
  legend { font-weight: 600; font-size: 14px; padding: 0; margin-bottom: 4px; }
  .hint { margin: 0; font-size: 13px; color: ${appTheme.color.textMuted}; }
  .error { margin: 0; font-size: 13px; color: ${appTheme.color.danger}; }
`;

const LinkRow = styled.div`
  display: grid;
  gap: 8px;
  grid-template-columns: minmax(0, 1fr);
  @media (min-width: 600px) { grid-template-columns: minmax(0, 1fr) minmax(0, 2fr); }
  label { font-weight: 400; font-size: 13px; }
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
`;

export function ProfileSettings({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const t = useTranslations('settings');
  const schema = useMemo(() => profileSchema(), []);
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
    initialValues: {
      description: user.description ?? '',
      displayName: user.displayName ?? '',
      // Always four rows: the saved links, then empty ones (an empty row is no link).
      fields: Array.from({ length: PROFILE_FIELDS_MAX }, (_, i) => ({
        name: user.fields[i]?.name ?? '',
        value: user.fields[i]?.value ?? '',
      })),
    },
    validationSchema: schema,
    validate: (values) => {
      const errors: { displayName?: string; fields?: string } = {};
      const nameError = displayNameError(normalizeDisplayName(values.displayName));
      if (nameError) errors.displayName = nameError;
      const read = readFields(values.fields);
      if ('error' in read) errors.fields = read.error;
      return errors;
    },
    onSubmit: async (values, { resetForm }) => {
      const result = await dispatch(
        updateProfile({
          avatar: shown('avatar'),
          banner: shown('banner'),
          description: values.description,
          displayName: values.displayName,
          fields: values.fields,
        }),
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
  useLeaveGuard(unsaved, t('profile.leave'));

  // Remove: drops a fresh upload and the saved image from the form; Save sends `null` (API.md, updateProfile).
  const remove = (kind: 'avatar' | 'banner') => () => {
    dispatch(uploadReset(kind));
    setRemoved((was) => ({ ...was, [kind]: true }));
  };

  return (
    <Panel id={SETTINGS_SECTIONS.profile} aria-labelledby="profile-settings">
      <h2 id="profile-settings">{t('profile.heading')}</h2>
      <p className="lead">{t('profile.lead')}</p>
      <form onSubmit={formik.handleSubmit} noValidate data-unsaved={unsaved}>
        <Stack $gap={20}>
          <Images>
            <div>
              <h3>{t('profile.avatar')}</h3>
              <ImageDropzone
                kind="avatar"
                label={t('profile.avatar')}
                shape="round"
                preview={shown('avatar')}
                hintId="avatar-hint"
                onRemove={remove('avatar')}
                removing={loading}
              />
            </div>
            <div>
              <h3>{t('profile.banner')}</h3>
              <ImageDropzone
                kind="banner"
                label={t('profile.banner')}
                shape="wide"
                preview={shown('banner')}
                hintId="banner-hint"
                onRemove={remove('banner')}
                removing={loading}
              />
            </div>
          </Images>
          <TextField
            label={t('profile.displayName')}
            hint={t('profile.displayNameHint', { count: formik.values.displayName.length, max: DISPLAY_NAME_MAX })}
            maxLength={DISPLAY_NAME_MAX + 10}
            autoComplete="nickname"
            {...formik.getFieldProps('displayName')}
            error={formik.errors.displayName}
          />
          <TextAreaField
            label={t('profile.description')}
            hint={t('profile.descriptionCount', { count: formik.values.description.length, max: DESCRIPTION_MAX })}
            {...formik.getFieldProps('description')}
            error={formik.errors.description}
          />
          <Links aria-describedby="links-hint">
            <legend>{t('profile.links')}</legend>
            <p className="hint" id="links-hint">
              {t('profile.linksHint', { max: PROFILE_FIELDS_MAX })}
            </p>
            {formik.values.fields.map((_, i) => (
              <LinkRow key={i}>
                <TextField
                  label={t('profile.linkName', { number: i + 1 })}
                  maxLength={FIELD_NAME_MAX}
                  {...formik.getFieldProps(`fields.${i}.name`)}
                />
                <TextField
                  label={t('profile.linkValue', { number: i + 1 })}
                  maxLength={FIELD_VALUE_MAX}
                  {...formik.getFieldProps(`fields.${i}.value`)}
                />
              </LinkRow>
            ))}
            {typeof formik.errors.fields === 'string' && (
              <p className="error" role="alert">
                {formik.errors.fields}
              </p>
            )}
          </Links>
          <Actions>
            <Button type="submit" disabled={loading || uploading} aria-busy={loading}>
              {loading && <Spinner />} {t('profile.save')}
            </Button>
          </Actions>
        </Stack>
      </form>
    </Panel>
  );
}
