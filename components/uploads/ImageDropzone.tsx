import { useDropzone } from 'react-dropzone';
import styled, { css } from 'styled-components';
import type { UploadPreset } from '../../lib/limits';
import { TEXTS } from '../../lib/texts';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { selectUpload, uploadImage } from '../../store/slices/uploadFilesSlice';
import { Icon } from '../ui/Icon';
import { UploadProgress } from './UploadProgress';

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
  color: ${({ theme }) => theme.color.textMuted};
  text-align: center;
  cursor: pointer;
  transition: border-color 0.15s, background-color 0.15s;
  &:hover { border-color: ${({ theme }) => theme.color.accent}; }
  &:focus-visible { outline: 2px solid ${({ theme }) => theme.color.focus}; outline-offset: 2px; }
  ${({ $shape }) =>
    $shape === 'round'
      ? css`width: 112px; height: 112px; border-radius: 50%;`
      : $shape === 'wide'
        ? css`width: 100%; aspect-ratio: 3 / 1; border-radius: 14px;`
        : css`width: 100%; min-height: 220px; border-radius: 14px; padding: 16px;`}
  img {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
  strong { color: ${({ theme }) => theme.color.text}; }
`;

const Overlay = styled.span`
  position: absolute;
  inset: auto 8px 8px auto;
  display: inline-flex;
  align-items: center;
  gap: 6px;
  padding: 4px 10px;
  border-radius: 999px;
  background: rgba(0, 0, 0, 0.72);
  color: #fff;
  font-size: 13px;
  font-weight: 600;
`;

const Hint = styled.p`
  margin: 6px 0 0;
  font-size: 13px;
  color: ${({ theme }) => theme.color.textMuted};
`;

interface ImageDropzoneProps {
  kind: UploadPreset;
  /** What the zone sets, for its accessible name ("Post image", "Avatar"). */
  label: string;
  /** The image to show: the fresh upload, else the current one. */
  preview: string | null;
  shape?: 'wide' | 'square' | 'round';
  /** Id for the hint so the zone can reference it. */
  hintId: string;
}

/** Drop or pick a JPEG/PNG; it is checked, then uploaded with progress. */
export function ImageDropzone({ kind, label, preview, shape = 'square', hintId }: ImageDropzoneProps) {
  const dispatch = useAppDispatch();
  const upload = useAppSelector(selectUpload(kind));
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    accept: { 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'] },
    multiple: false,
    disabled: upload.loading,
    // Rejected files go through the same checks so the user sees the spec's message.
    onDrop: (accepted, rejected) => {
      const file = accepted[0] ?? rejected[0]?.file;
      if (file) void dispatch(uploadImage({ file, kind }));
    },
  });

  return (
    <div>
      <Zone
        {...getRootProps({ role: 'button', 'aria-label': `${label}: choose or drop an image`, 'aria-describedby': hintId })}
        $active={isDragActive}
        $shape={shape}
      >
        <input {...getInputProps({ 'aria-label': label })} />
        {preview ? (
          <>
            <img src={preview} alt="" />
            {shape !== 'round' && (
              <Overlay>
                <Icon name="image" size={14} /> Replace
              </Overlay>
            )}
          </>
        ) : (
          <>
            <Icon name="upload" size={shape === 'round' ? 22 : 28} />
            {shape === 'square' && (
              <span>
                <strong>Choose an image</strong> or drag it here
              </span>
            )}
          </>
        )}
      </Zone>
      {upload.loading && <UploadProgress percent={upload.progress} label={`Uploading ${label.toLowerCase()}`} />}
      <Hint id={hintId}>{TEXTS.uploadHint}</Hint>
    </div>
  );
}

export default ImageDropzone;
