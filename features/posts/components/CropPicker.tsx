import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { feedRatio } from '../../../lib/photoBox';
import { type PhotoCrop, cropStyle } from '../../../lib/photoCrop';
import { appTheme } from '../../../themes';

/** The feed's box, as PostImage draws it. */
const Box = styled.div<{ $ratio: number }>`
  position: relative;
  width: min(100%, 360px);
  margin: 0 auto;
  aspect-ratio: ${({ $ratio }) => $ratio};
  overflow: hidden;
  border-radius: ${appTheme.radius.md};
  background: ${appTheme.color.skeleton};
  cursor: grab;
  touch-action: none;
  img {
    width: 100%;
    height: 100%;
    object-fit: cover;
    pointer-events: none;
    user-select: none;
  }
  &[aria-disabled='true'] { cursor: default; }
  &:focus-visible { outline: 3px solid ${appTheme.color.focus}; outline-offset: 2px; }
`;

const Controls = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 8px;
  margin-top: 8px;
  font-size: 13px;
  color: ${appTheme.color.textMuted};
  label { display: flex; align-items: center; gap: 8px; color: ${appTheme.color.text}; font-size: 14px; }
  input { width: 18px; height: 18px; accent-color: ${appTheme.color.accent}; }
`;

/** One arrow key press moves the crop by this share of the photo. */
const STEP = 0.05;
const clamp = (n: number) => Math.min(1, Math.max(0, Math.round(n * 1000) / 1000));

interface CropPickerProps {
  src: string;
  width: number;
  height: number;
  crop: PhotoCrop;
  onChange: (crop: PhotoCrop) => void;
  id: string;
}

/**
 * The photo in the box the feeds show it in, cropped where the feeds will crop it: drag it (or
 * use the arrow keys) to choose what stays in view, or tick Fit for the whole photo.
 */
export function CropPicker({ src, width, height, crop, onChange, id }: CropPickerProps) {
  const t = useTranslations('posts');
  const drag = useRef<{ x: number; y: number; crop: PhotoCrop } | null>(null);
  const ratio = feedRatio(width, height);
  // Which way the photo overflows its box (only that axis can move).
  const wide = width / height > ratio;
  const tall = width / height < ratio;

  const move = (dx: number, dy: number) => {
    if (crop.fit) return;
    onChange({ ...crop, x: wide ? clamp(crop.x + dx) : crop.x, y: tall ? clamp(crop.y + dy) : crop.y });
  };
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = { ArrowLeft: [-STEP, 0], ArrowRight: [STEP, 0], ArrowUp: [0, -STEP], ArrowDown: [0, STEP] }[event.key];
    if (!step) return;
    event.preventDefault();
    move(step[0], step[1]);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (crop.fit) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, y: event.clientY, crop };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    const box = event.currentTarget.getBoundingClientRect();
    // Dragging the photo right shows more of its left: the focal point moves the other way,
    // by the share of the hidden part the pointer travelled.
    const hiddenX = Math.max(1, box.height * (width / height) - box.width);
    const hiddenY = Math.max(1, box.width / (width / height) - box.height);
    onChange({
      ...start.crop,
      x: wide ? clamp(start.crop.x - (event.clientX - start.x) / hiddenX) : start.crop.x,
      y: tall ? clamp(start.crop.y - (event.clientY - start.y) / hiddenY) : start.crop.y,
    });
  };
  const stop = () => {
    drag.current = null;
  };
  const movable = !crop.fit && (wide || tall);

  return (
    <div>
      <Box
        $ratio={ratio}
        role="group"
        tabIndex={movable ? 0 : -1}
        aria-disabled={!movable}
        aria-label={crop.fit ? t('crop.labelWhole') : t('crop.labelAt', { across: crop.x, down: crop.y })}
        aria-describedby={`${id}-crop-help`}
        data-testid="crop-picker"
        onKeyDown={onKey}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={stop}
        onPointerCancel={stop}
      >
        <img src={src} alt="" width={width} height={height} style={cropStyle(crop)} draggable={false} />
      </Box>
      <Controls>
        <span id={`${id}-crop-help`}>
          {crop.fit ? t('crop.helpFit') : movable ? t('crop.helpMovable') : t('crop.helpFits')}
        </span>
        <label>
          <input
            type="checkbox"
            checked={crop.fit}
            onChange={(event) => onChange({ ...crop, fit: event.target.checked })}
          />
          {t('crop.fit')}
        </label>
      </Controls>
    </div>
  );
}
