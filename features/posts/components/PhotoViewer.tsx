import { useRef } from 'react';
import styled from 'styled-components';
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
`;

const Close = styled.button`
  position: absolute;
  top: 8px;
  right: 8px;
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

interface PhotoViewerProps {
  src: string;
  info: ImageInfo | null;
  alt: string;
  onClose: () => void;
}

/**
 * The whole photo, as large as the window allows at its own ratio (never past its stored size).
 * A modal dialog: Escape, Close or a click beside the photo close it; focus goes back to the photo.
 * Its own chunk (lazy in PostImage): only the post page offers it, and few viewers open it.
 */
export default function PhotoViewer({ src, info, alt, onClose }: PhotoViewerProps) {
  const dialog = useRef<HTMLDivElement>(null);
  useScrollLock(true);
  useFocusTrap(dialog, onClose);
  return (
    <Backdrop
      ref={dialog}
      role="dialog"
      aria-modal="true"
      aria-label="Photo, full view"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <Close type="button" onClick={onClose}>
        <Icon name="close" size={16} />
        Close
      </Close>
      <img src={largestOf(src, info)} alt={alt} width={info?.width} height={info?.height} decoding="async" />
    </Backdrop>
  );
}
