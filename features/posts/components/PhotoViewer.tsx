import { useCallback, useRef } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { AlbumCarousel } from './AlbumCarousel';
import { Icon } from '../../../components/ui/Icon';
import { useFocusTrap } from '../../../hooks/useFocusTrap';
import { useScrollLock } from '../../../hooks/useScrollLock';
import type { ImageInfo } from '../../../lib/types';
import { appTheme } from '../../../themes';
import { overImage } from '../../../themes/fixed';

/** Dark whatever the theme: a photo is looked at on black. */
const Backdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: 110;
  display: grid;
  place-items: center;
  padding: 56px 8px 8px;
  background: ${overImage.surround};
  img {
    display: block;
    max-width: 100%;
    max-height: calc(100vh - 64px);
    width: auto;
    height: auto;
    object-fit: contain;
  }
  /* An album: the carousel spans the window, each photo centred in its slide. */
  > [role='group'] { width: 100%; }
  [data-album-slide] img { margin: 0 auto; max-height: calc(100vh - 96px); }
`;

const Close = styled.button`
  position: absolute;
  top: 8px;
  inset-inline-end: 8px;
  display: inline-flex;
  align-items: center;
  gap: 6px;
  min-height: 40px;
  padding: 0 14px;
  border: 1px solid ${overImage.text};
  border-radius: ${appTheme.radius.pill};
  background: ${overImage.button};
  color: ${overImage.text};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  &:focus-visible { outline: 2px solid ${overImage.text}; outline-offset: 2px; }
`;

/** The largest WebP of a srcset ("url 540w, url 1080w", smallest first), else the main file. */
const largestOf = (src: string, info: ImageInfo | null) => {
  const last = info?.srcset.split(',').pop()?.trim().split(' ')[0];
  return last || src;
};

interface ViewedPhoto {
  src: string;
  info: ImageInfo | null;
  alt: string;
}

interface PhotoViewerProps {
  /** The post's photos: one, or an album's (issue 71) shown in a carousel. */
  photos: ViewedPhoto[];
  /** The album's photo to open on. */
  start?: number;
  /** Told the photo shown when it closed: the page's album shows it too. */
  onClose: (at: number) => void;
}

const photoImg = ({ src, info, alt }: ViewedPhoto, load: boolean) => (
  <img
    src={largestOf(src, info)}
    alt={alt}
    width={info?.width}
    height={info?.height}
    decoding="async"
    loading={load ? 'eager' : 'lazy'}
  />
);

/**
 * The whole photo, as large as the window allows at its own ratio (never past its stored size).
 * A modal dialog: Escape, Close or a click beside the photo close it; focus goes back to the photo.
 * Its own chunk (lazy in PostImage): only the post page offers it, and few viewers open it. An
 * album's photos are a carousel (AlbumCarousel) whose ←/→ work wherever focus is in the dialog.
 */
export default function PhotoViewer({ photos, start = 0, onClose }: PhotoViewerProps) {
  const t = useTranslations('posts');
  const dialog = useRef<HTMLDivElement>(null);
  const shown = useRef(start);
  const onShown = useCallback((index: number) => {
    shown.current = index;
  }, []);
  const close = () => onClose(shown.current);
  useScrollLock(true);
  useFocusTrap(dialog, close);
  return (
    <Backdrop
      ref={dialog}
      role="dialog"
      aria-modal="true"
      aria-label={t('viewer.label')}
      onMouseDown={(event) => {
        // Beside the photo: the surround, or an album slide's margin around its photo.
        const target = event.target as HTMLElement;
        if (target === event.currentTarget || target.hasAttribute('data-album-slide')) close();
      }}
    >
      <Close type="button" onClick={close}>
        <Icon name="close" size={16} />
        {t('close')}
      </Close>
      {photos.length === 1 ? (
        photoImg(photos[0], true)
      ) : (
        <AlbumCarousel count={photos.length} label={t('viewer.photos')} start={start} viewer onShown={onShown}>
          {(index, { preload }) => photoImg(photos[index], preload)}
        </AlbumCarousel>
      )}
    </Backdrop>
  );
}
