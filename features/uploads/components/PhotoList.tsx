import { useEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useDropzone } from 'react-dropzone';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { ALT_MAX } from '../../../lib/limits';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { useToasts } from '../../../store/toasts';
import { Button } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { appTheme } from '../../../themes';
import {
  photoAltChanged,
  photoMoved,
  photoRemoved,
  photoRetried,
  photosAdded,
  selectPhotoLimit,
  selectPhotos,
  uploadListToasts,
  type PhotoItem,
} from '../state/uploadListSlice';
import { UploadProgress } from './UploadProgress';

const Zone = styled.div<{ $active: boolean; $compact: boolean }>`
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 6px;
  min-height: ${({ $compact }) => ($compact ? '72px' : '160px')};
  padding: 12px;
  border: 2px dashed ${({ $active, theme }) => ($active ? theme.color.accent : theme.color.border)};
  border-radius: 14px;
  background: ${({ $active, theme }) => ($active ? theme.color.accentSoft : theme.color.surfaceRaised)};
  color: ${appTheme.color.textMuted};
  text-align: center;
  cursor: pointer;
  &:hover { border-color: ${appTheme.color.accent}; }
`;

/** "Drag photos here" where a mouse can drag; only the button's words on a touch or narrow screen. */
const ZoneText = styled.span`
  @media (hover: none), (max-width: 599px) {
    display: none;
  }
`;

const Grid = styled.ol`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(140px, 1fr));
  gap: 12px;
  margin: 0 0 12px;
  padding: 0;
  list-style: none;
`;

const Card = styled.li<{ $dragging: boolean; $over: boolean }>`
  display: grid;
  gap: 6px;
  padding: 6px;
  border: 2px solid ${({ $over, theme }) => ($over ? theme.color.accent : theme.color.border)};
  border-radius: 12px;
  background: ${appTheme.color.surface};
  opacity: ${({ $dragging }) => ($dragging ? 0.5 : 1)};
  &:focus-within { border-color: ${appTheme.color.accent}; }
`;

const Thumb = styled.div`
  position: relative;
  aspect-ratio: 1;
  overflow: hidden;
  border-radius: 8px;
  background: ${appTheme.color.surfaceRaised};
  cursor: grab;
  img { width: 100%; height: 100%; object-fit: cover; display: block; }
  span {
    position: absolute;
    top: 4px;
    inset-inline-start: 4px;
    padding: 0 6px;
    border-radius: ${appTheme.radius.pill};
    background: ${appTheme.color.overlay};
    color: ${appTheme.color.text};
    font-size: 12px;
    font-weight: 600;
  }
`;

const Tools = styled.div`
  display: flex;
  justify-content: space-between;
  gap: 4px;
  button { min-width: 40px; min-height: 40px; padding: 0 8px; }
`;

const AltField = styled.label`
  display: grid;
  gap: 4px;
  font-size: 12px;
  font-weight: 600;
  color: ${appTheme.color.textMuted};
  textarea { min-height: 64px; font-size: 14px; font-weight: 400; resize: vertical; }
`;

const Problem = styled.p`
  margin: 0;
  font-size: 12px;
  font-weight: 600;
  color: ${appTheme.color.danger};
`;

const Hint = styled.p`
  margin: 6px 0 0;
  font-size: 13px;
  color: ${appTheme.color.textMuted};
`;

const CropSlot = styled.div`
  margin-bottom: 12px;
`;

const Right = styled.span`
  display: inline-flex;
  transform: scaleX(-1);
`;

/** The English of `uploads.photos.keepOne` (the tests' and the browser suite's). */
export const LAST_PHOTO_TEXT = 'A post keeps at least one photo: add another before removing this one.';

interface PhotoListProps {
  hintId: string;
  /** The edit dialog: the last photo cannot be removed (a post keeps one). */
  keepOne?: boolean;
  /** The crop picker of one photo (the composer's), shown under the list for the chosen photo. */
  renderCrop?: (photo: PhotoItem, index: number) => ReactNode;
}

/**
 * A photo's move buttons go by its place in the album: earlier first (at the line's start: the left,
 * or the right in Arabic, where the row and the arrows mirror), later second. Each language's label
 * says the side its reader sees the photo go to (docs/api-decisions.md, languages).
 */
type Focus = { key: string; control: 'earlier' | 'later' };

/** A rich text's part said to screen readers only (" of 5" after a photo's number). */
const visuallyHidden = (chunks: ReactNode) => <span className="visually-hidden">{chunks}</span>;

/**
 * The composer's photos (issue 71): add several at once (the button, or a drop on the zone), each
 * a thumbnail with its upload's progress, its error and Retry, Move left / Move right (the keyboard
 * way; dragging a card is the mouse way), Remove and its alt text. A move keeps focus on the moved
 * photo and is announced ("Photo moved to position 3 of 5").
 */
export function PhotoList({ hintId, keepOne = false, renderCrop }: PhotoListProps) {
  const t = useTranslations('uploads');
  const dispatch = useAppDispatch();
  useToasts(uploadListToasts);
  const photos = useAppSelector(selectPhotos);
  const limit = useAppSelector(selectPhotoLimit);
  const [announcement, setAnnouncement] = useState('');
  // The control to focus once a move has re-rendered the list.
  const pendingFocus = useRef<Focus | null>(null);
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const [lastWarning, setLastWarning] = useState<string | null>(null);
  // Whose crop shows under the list: the only photo's, or the one chosen with its Crop button.
  const [cropKey, setCropKey] = useState<string | null>(null);
  const cropIndex = photos.length === 1 ? 0 : photos.findIndex((photo) => photo.key === cropKey);
  const cropped = cropIndex >= 0 ? photos[cropIndex] : null;
  const buttons = useRef(new Map<string, HTMLButtonElement | null>());
  const full = limit !== null && photos.length >= limit;

  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    accept: { 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'] },
    multiple: true,
    noClick: true,
    noKeyboard: true,
    disabled: full,
    // A card dragged onto the zone is a reorder, not files.
    onDrop: (accepted, rejected) => {
      const files = [...accepted, ...rejected.map((rejection) => rejection.file)];
      if (files.length) void dispatch(photosAdded(files));
    },
  });

  // After a move the moved photo keeps focus: on the same button, or the other one at an end.
  useEffect(() => {
    const focus = pendingFocus.current;
    if (!focus) return;
    pendingFocus.current = null;
    const same = buttons.current.get(`${focus.key}:${focus.control}`);
    const other = buttons.current.get(`${focus.key}:${focus.control === 'earlier' ? 'later' : 'earlier'}`);
    (same && !same.disabled ? same : other)?.focus();
  }, [photos]);

  const move = (key: string, to: number, control?: Focus['control']) => {
    dispatch(photoMoved({ key, to }));
    setAnnouncement(t('photos.moved', { position: to + 1, count: photos.length }));
    if (control) pendingFocus.current = { key, control };
  };

  const remove = (key: string) => {
    if (keepOne && photos.length <= 1) {
      setLastWarning(key);
      return;
    }
    const index = photos.findIndex((photo) => photo.key === key);
    dispatch(photoRemoved(key));
    setAnnouncement(t('photos.removed', { n: index + 1, left: photos.length - 1 }));
  };

  const onDrop = (event: DragEvent, target: number) => {
    if (!dragged) return;
    event.preventDefault();
    event.stopPropagation();
    move(dragged, target);
    setDragged(null);
    setOver(null);
  };

  const setButton = (key: string, control: string) => (node: HTMLButtonElement | null) => {
    buttons.current.set(`${key}:${control}`, node);
  };

  return (
    <div>
      {photos.length > 0 && (
        <Grid aria-label={t('photos.label')}>
          {photos.map((photo, index) => {
            const n = index + 1;
            const src = photo.url ?? photo.preview;
            return (
              <Card
                key={photo.key}
                data-testid="photo-card"
                $dragging={dragged === photo.key}
                $over={over === photo.key && dragged !== photo.key}
                onDragOver={(event) => {
                  if (!dragged) return;
                  event.preventDefault();
                  setOver(photo.key);
                }}
                onDragLeave={() => setOver((current) => (current === photo.key ? null : current))}
                onDrop={(event) => onDrop(event, index)}
              >
                <Thumb
                  draggable
                  onDragStart={(event) => {
                    event.dataTransfer.effectAllowed = 'move';
                    event.dataTransfer.setData('text/plain', photo.key);
                    setDragged(photo.key);
                  }}
                  onDragEnd={() => {
                    setDragged(null);
                    setOver(null);
                  }}
                >
                  {src && <img src={src} alt="" draggable={false} />}
                  <span>{t.rich('photos.number', { n, count: photos.length, hidden: visuallyHidden })}</span>
                </Thumb>
                {photo.status === 'uploading' && (
                  <UploadProgress percent={photo.progress} label={t('photos.uploading', { n })} />
                )}
                {photo.status === 'queued' && <Hint>{t('photos.waiting')}</Hint>}
                {photo.status === 'error' && (
                  <>
                    <Problem role="alert">{t('photos.problem', { n, problem: photo.error ?? '' })}</Problem>
                    <Button
                      type="button"
                      $variant="secondary"
                      $size="sm"
                      onClick={() => dispatch(photoRetried(photo.key))}
                    >
                      {t.rich('photos.retry', { n, hidden: visuallyHidden })}
                    </Button>
                  </>
                )}
                <Tools>
                  <Button
                    ref={setButton(photo.key, 'earlier')}
                    type="button"
                    $variant="ghost"
                    $size="sm"
                    aria-label={t('photos.moveEarlier', { n })}
                    disabled={index === 0}
                    onClick={() => move(photo.key, index - 1, 'earlier')}
                  >
                    <Icon name="arrowLeft" size={16} />
                  </Button>
                  <Button
                    ref={setButton(photo.key, 'later')}
                    type="button"
                    $variant="ghost"
                    $size="sm"
                    aria-label={t('photos.moveLater', { n })}
                    disabled={index === photos.length - 1}
                    onClick={() => move(photo.key, index + 1, 'later')}
                  >
                    <Right>
                      <Icon name="arrowLeft" size={16} />
                    </Right>
                  </Button>
                  <Button
                    type="button"
                    $variant="ghost"
                    $size="sm"
                    aria-label={t('photos.remove', { n })}
                    aria-describedby={lastWarning === photo.key ? `${hintId}-last` : undefined}
                    onClick={() => remove(photo.key)}
                  >
                    <Icon name="trash" size={16} />
                  </Button>
                </Tools>
                {lastWarning === photo.key && photos.length <= 1 && (
                  <Problem id={`${hintId}-last`} role="alert">
                    {t('photos.keepOne')}
                  </Problem>
                )}
                <AltField>
                  {t('photos.alt', { n })}
                  <textarea
                    value={photo.alt}
                    maxLength={ALT_MAX}
                    placeholder={t('photos.altPlaceholder')}
                    onChange={(event) => dispatch(photoAltChanged({ key: photo.key, alt: event.target.value }))}
                  />
                </AltField>
                {renderCrop && photos.length > 1 && photo.info && (
                  <Button
                    type="button"
                    $variant="ghost"
                    $size="sm"
                    aria-pressed={cropKey === photo.key}
                    onClick={() => setCropKey(cropKey === photo.key ? null : photo.key)}
                  >
                    {t.rich('photos.crop', { n, hidden: visuallyHidden })}
                  </Button>
                )}
              </Card>
            );
          })}
        </Grid>
      )}
      {renderCrop && cropped?.info && (
        <CropSlot aria-label={t('photos.cropOf', { n: cropIndex + 1 })} role="group">
          {renderCrop(cropped, cropIndex)}
        </CropSlot>
      )}
      <Zone
        {...getRootProps({ onClick: full ? undefined : open })}
        $active={isDragActive}
        $compact={photos.length > 0}
        data-testid="post-dropzone"
      >
        <input {...getInputProps()} aria-describedby={hintId} />
        {photos.length === 0 && <Icon name="upload" size={28} />}
        <ZoneText>{photos.length === 0 ? t('photos.dragFirst') : t('photos.dragMore')}</ZoneText>
        {/* The one add control: the keyboard's and screen reader's way, and the phone's. */}
        <Button
          type="button"
          $variant="secondary"
          $size="sm"
          disabled={full}
          aria-describedby={hintId}
          onClick={(event) => {
            event.stopPropagation();
            open();
          }}
        >
          <Icon name="image" size={16} /> {t('photos.add')}
        </Button>
      </Zone>
      <Hint id={hintId}>{limit === null ? t('hint') : t('hintWithLimit', { limit })}</Hint>
      <span className="visually-hidden" aria-live="polite">
        {announcement}
      </span>
    </div>
  );
}
