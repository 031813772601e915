import { useDropzone } from 'react-dropzone';
import styled, { css } from 'styled-components';
import { useLocale, useTranslations } from 'use-intl/react';
import type { UploadPreset } from '../../../lib/limits';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { selectUpload, uploadImage } from '../state/uploadFilesSlice';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { UploadProgress } from './UploadProgress';
import { appTheme } from '../../../themes';

/** The round (avatar) zone's size; a wide zone is never shorter, so side by side their buttons line up. */
const ROUND_ZONE_PX = 112;

const Zone = styled.div<{ $active: boolean; $shape: 'wide' | 'square' | 'round' }>`
  position: relative;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 6px;
  overflow: hidden;
  border: 2px dashed ${({ $active, theme }) => ($active ? theme.color.accent : theme.color.border)};
  background: ${({ $active, theme }) => ($active ? theme.color.accentSoft : theme.color.surfaceRaised)};
  color: ${appTheme.color.textMuted};
  text-align: center;
  cursor: pointer;
  transition: border-color 0.15s, background-color 0.15s;
  &:hover { border-color: ${appTheme.color.accent}; }
  ${({ $shape }) =>
    $shape === 'round'
      ? css`width: ${ROUND_ZONE_PX}px; height: ${ROUND_ZONE_PX}px; border-radius: 50%;`
      : $shape === 'wide'
        ? css`width: 100%; aspect-ratio: 3 / 1; min-height: ${ROUND_ZONE_PX}px; border-radius: 14px;`
        : css`width: 100%; min-height: 200px; border-radius: 14px; padding: 16px;`}
  img {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
`;

/**
 * The zone's words: "Drag an image here or choose one" where a mouse can drag, "Choose a photo" on a
 * touch screen or a narrow one, where nothing is dragged (issue 68, item 19).
 */
const ZoneText = styled.span`
  .touch { display: none; }
  @media (hover: none), (max-width: 599px) {
    .pointer { display: none; }
    .touch { display: inline; }
  }
`;

const Controls = styled.div`
  display: flex;
  flex-wrap: wrap; /* Replace and Remove side by side where they fit, one under the other where not */
  align-items: center;
  gap: 10px;
  margin-top: 10px;
`;

/** As tall as the progress bar with its margin (8px + 6px); flow-root keeps that margin inside. */
const ProgressSlot = styled.div`
  display: flow-root;
  height: 14px;
`;

const Hint = styled.p`
  margin: 6px 0 0;
  font-size: 13px;
  color: ${appTheme.color.textMuted};
`;

const Problem = styled.p`
  margin: 6px 0 0;
  font-size: 13px;
  font-weight: 600;
  color: ${appTheme.color.danger};
`;

interface ImageDropzoneProps {
  kind: UploadPreset;
  /** What the image is for ("Post image", "Avatar"): names the button. */
  label: string;
  /** The image to show: the fresh upload, else the current one. */
  preview: string | null;
  shape?: 'wide' | 'square' | 'round';
  hintId: string;
  /** Offers "Remove {label}" while there is an image. */
  onRemove?: () => void;
  removing?: boolean;
}

/**
 * Drop an image on the zone or pick one with the button; it is checked (JPEG/PNG, under 4 MB),
 * then uploaded with progress. The button is the keyboard and screen-reader path; the zone
 * is a larger target for the mouse and for drag and drop.
 */
export function ImageDropzone({
  kind,
  label,
  preview,
  shape = 'square',
  hintId,
  onRemove,
  removing,
}: ImageDropzoneProps) {
  const t = useTranslations('uploads');
  // The label inside a sentence ("Replace avatar"): lower case, but German keeps its nouns capitalised.
  const locale = useLocale();
  const inSentence = locale === 'de' ? label : label.toLocaleLowerCase(locale);
  const dispatch = useAppDispatch();
  const upload = useAppSelector(selectUpload(kind));
  // The refusal stays beside the button until the next pick (the toast goes after 2 s; issue 68, item 5).
  const problemId = `${hintId}-problem`;
  const describedBy = upload.error ? `${problemId} ${hintId}` : hintId;
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    accept: { 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'] },
    multiple: false,
    noClick: true,
    noKeyboard: true,
    disabled: upload.loading,
    // Rejected files go through the same checks so the user sees the spec's message.
    onDrop: (accepted, rejected) => {
      const file = accepted[0] ?? rejected[0]?.file;
      if (file) void dispatch(uploadImage({ file, kind }));
    },
  });

  return (
    <div>
      <Zone {...getRootProps({ onClick: open })} $active={isDragActive} $shape={shape} data-testid={`${kind}-dropzone`}>
        <input {...getInputProps()} aria-invalid={Boolean(upload.error)} aria-describedby={describedBy} />
        {preview ? (
          <img src={preview} alt="" />
        ) : (
          <>
            <Icon name="upload" size={shape === 'round' ? 22 : 28} />
            {shape === 'square' && (
              <ZoneText>
                <span className="pointer">{t('dropzone.drag')}</span>
                <span className="touch">{t('dropzone.choosePhoto')}</span>
              </ZoneText>
            )}
          </>
        )}
      </Zone>
      <Controls>
        <Button
          type="button"
          $variant="secondary"
          $size="sm"
          onClick={open}
          disabled={upload.loading}
          aria-describedby={describedBy}
        >
          <Icon name="image" size={16} />{' '}
          {preview ? t('dropzone.replace', { label: inSentence }) : t('dropzone.choose', { label: inSentence })}
        </Button>
        {onRemove && preview && (
          <Button
            type="button"
            $variant="secondary"
            $size="sm"
            onClick={onRemove}
            disabled={upload.loading || removing}
            aria-busy={removing}
          >
            <Icon name="trash" size={16} /> {t('dropzone.remove', { label: inSentence })}
          </Button>
        )}
      </Controls>
      {/* The progress bar's place is kept while there is none: nothing moves when it appears. */}
      <ProgressSlot>
        {upload.loading && (
          <UploadProgress percent={upload.progress} label={t('dropzone.uploading', { label: inSentence })} />
        )}
      </ProgressSlot>
      {upload.error && (
        <Problem id={problemId} role="alert">
          {upload.error}
        </Problem>
      )}
      <Hint id={hintId}>{t('hint')}</Hint>
    </div>
  );
}
