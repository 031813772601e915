/**
 * An album's photos, one at a time (issue 71, item 3): in the feeds' cards, on the post's page and
 * in the full view. The track is a CSS scroll-snap row, so a swipe (touch) or a sideways scroll (a
 * trackpad) is the browser's own; Previous photo / Next photo and ←/→ (while focus is inside)
 * move one photo. The dots under it say where the reader is, and "2 of 5" is announced. The photos
 * not shown are `inert` (no link or button of theirs in the tab order or the accessibility tree).
 * Every slide is laid out from the start with its box from the stored dimensions, so nothing moves
 * when a photo arrives; the next photo is fetched before it is asked for (`preload`).
 */
import { type ReactNode, useEffect } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { Icon } from '../../../components/ui/Icon';
import { appTheme } from '../../../themes';
import { overImage } from '../../../themes/fixed';
import { useCarousel } from '../hooks/useCarousel';

const Root = styled.div`
  position: relative;
`;

const Track = styled.div<{ $viewer: boolean }>`
  display: flex;
  align-items: center;
  overflow-x: auto;
  overflow-y: hidden;
  scroll-snap-type: x mandatory;
  overscroll-behavior-x: contain;
  scrollbar-width: none;
  &::-webkit-scrollbar { display: none; }
  &:focus-visible { outline: 3px solid ${appTheme.color.focus}; outline-offset: -3px; }
  background-color: ${({ $viewer }) => ($viewer ? 'transparent' : appTheme.color.surfaceRaised)};
`;

const Slide = styled.div`
  flex: 0 0 100%;
  min-width: 0;
  scroll-snap-align: center;
  scroll-snap-stop: always;
`;

/** `$side` as a left-to-right page has it: right to left, the arrows (and their chevrons, Icon.tsx) mirror. */
const Arrow = styled.button<{ $side: 'left' | 'right' }>`
  position: absolute;
  top: 50%;
  ${({ $side }) => ($side === 'left' ? 'inset-inline-start' : 'inset-inline-end')}: 8px;
  z-index: 1;
  display: grid;
  place-items: center;
  width: 36px;
  height: 36px;
  margin-top: -28px;
  padding: 0;
  border: 1px solid ${overImage.text};
  border-radius: ${appTheme.radius.pill};
  background: ${overImage.button};
  color: ${overImage.text};
  cursor: pointer;
  &[hidden] { display: none; }
  &:hover { background: ${overImage.label}; }
  &:focus-visible { outline: 3px solid ${appTheme.color.focus}; outline-offset: 2px; }
`;

const Dots = styled.div<{ $viewer: boolean }>`
  display: flex;
  justify-content: center;
  align-items: center;
  gap: 5px;
  height: 20px;
  color: ${({ $viewer }) => ($viewer ? overImage.text : appTheme.color.textMuted)};
  span[data-dot] {
    width: 6px;
    height: 6px;
    border-radius: 50%;
    background: currentColor;
    opacity: 0.45;
    transition: opacity 0.2s ease, transform 0.2s ease;
  }
  span[data-dot='current'] {
    opacity: 1;
    transform: scale(1.25);
    background: ${({ $viewer }) => ($viewer ? overImage.text : appTheme.color.accent)};
  }
`;

export interface SlideState {
  /** The photo shown. */
  current: boolean;
  /** Fetch this photo now: the album is near the screen and this is the photo shown, one before it or the next. */
  preload: boolean;
}

interface AlbumCarouselProps {
  count: number;
  /** The carousel's name, e.g. "Photos by ana". */
  label: string;
  /** The photo shown first (the full view opened on photo 3). */
  start?: number;
  /** The full view: light controls over the dark surround, keys from anywhere in its dialog. */
  viewer?: boolean;
  /**
   * A photo to show, asked from outside (the full view closed on it): each ask a new object, and
   * focus goes with it, as it was on the photo the full view was opened from.
   */
  show?: { index: number };
  /** Told the photo shown whenever it changes (the full view tells its page where it closed). */
  onShown?: (index: number) => void;
  /** The slide of photo `index`. */
  children: (index: number, state: SlideState) => ReactNode;
}

export function AlbumCarousel({
  count,
  label,
  start = 0,
  viewer = false,
  show,
  onShown,
  children,
}: AlbumCarouselProps) {
  const t = useTranslations('posts');
  const { index, near, root, track, previous, next, go, onScroll, onKeyDown } = useCarousel(count, start);

  useEffect(() => {
    if (show) go(show.index, 'slide');
  }, [show, go]);
  useEffect(() => {
    onShown?.(index);
  }, [index, onShown]);

  // The full view is a dialog that holds focus: its arrows work wherever focus is in it.
  useEffect(() => {
    if (!viewer) return undefined;
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [viewer, onKeyDown]);

  return (
    <Root
      ref={root}
      role="group"
      aria-roledescription={t('carousel.role')}
      aria-label={label}
      onKeyDown={viewer ? undefined : onKeyDown}
      data-album-index={index}
    >
      <Track
        ref={track}
        onScroll={onScroll}
        $viewer={viewer}
        data-album-track=""
        // The full view's photos hold no control: the track itself takes focus, so a keyboard
        // reaches the scrolling region (its slides on the page have their link or button).
        tabIndex={viewer ? 0 : undefined}
      >
        {Array.from({ length: count }, (_, i) => (
          <Slide
            key={i}
            role="group"
            aria-roledescription={t('carousel.slideRole')}
            aria-label={t('carousel.position', { index: i + 1, count })}
            inert={i !== index}
            data-album-slide=""
          >
            {children(i, { current: i === index, preload: near && i <= index + 1 })}
          </Slide>
        ))}
      </Track>
      <Arrow
        ref={previous}
        type="button"
        $side="left"
        aria-label={t('carousel.previous')}
        hidden={index === 0}
        onClick={() => go(index - 1, 'previous')}
      >
        <Icon name="chevronLeft" size={20} />
      </Arrow>
      <Arrow
        ref={next}
        type="button"
        $side="right"
        aria-label={t('carousel.next')}
        hidden={index === count - 1}
        onClick={() => go(index + 1, 'next')}
      >
        <Icon name="chevronRight" size={20} />
      </Arrow>
      <Dots $viewer={viewer}>
        {Array.from({ length: count }, (_, i) => (
          <span key={i} data-dot={i === index ? 'current' : ''} aria-hidden="true" />
        ))}
        <span className="visually-hidden" aria-live="polite" aria-atomic="true">
          {t('carousel.position', { index: index + 1, count })}
        </span>
      </Dots>
    </Root>
  );
}
