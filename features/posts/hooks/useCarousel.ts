import { type KeyboardEvent, type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** Where focus goes after a move, when it was on something the move hides or makes inert. */
type FocusAfter = 'slide' | 'previous' | 'next' | null;

const clamp = (n: number, count: number) => Math.min(Math.max(n, 0), count - 1);

const prefersReducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** useLayoutEffect in the browser; nothing on the server (React warns about it there). */
const useBrowserLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

export interface Carousel {
  /** The photo shown (0-based). */
  index: number;
  /** The album has come near the screen: its next photo may load. */
  near: boolean;
  root: RefObject<HTMLDivElement | null>;
  track: RefObject<HTMLDivElement | null>;
  previous: RefObject<HTMLButtonElement | null>;
  next: RefObject<HTMLButtonElement | null>;
  /** Shows photo `to`; `focusAfter` keeps focus inside the carousel when its place goes away. */
  go: (to: number, focusAfter?: FocusAfter) => void;
  onScroll: () => void;
  onKeyDown: (event: KeyboardEvent | globalThis.KeyboardEvent) => void;
}

/** 1 for a left-to-right track, −1 right to left (Arabic: `scrollLeft` runs negative from the start). */
const inlineSign = (node: HTMLElement) => (getComputedStyle(node).direction === 'rtl' ? -1 : 1);

/**
 * The state of an album's carousel (features/posts/components/AlbumCarousel.tsx). The track is a
 * CSS scroll-snap row, so a swipe or a trackpad's sideways scroll is the browser's own; the index
 * follows the track's scroll position. The buttons and the arrow keys scroll the track to a photo.
 */
export function useCarousel(count: number, start = 0): Carousel {
  const [index, setIndex] = useState(() => clamp(start, count));
  const [near, setNear] = useState(false);
  const root = useRef<HTMLDivElement | null>(null);
  const track = useRef<HTMLDivElement | null>(null);
  const previous = useRef<HTMLButtonElement | null>(null);
  const next = useRef<HTMLButtonElement | null>(null);
  /** The photo a button or key asked for, while the smooth scroll to it runs. */
  const heading = useRef<number | null>(null);
  const focusAfter = useRef<FocusAfter>(null);
  // The index for the handlers the track and the document keep between renders.
  const indexRef = useRef(index);
  useBrowserLayoutEffect(() => {
    indexRef.current = index;
  }, [index]);

  // Starting elsewhere than the first photo (the full view opened on photo 3): no animation.
  useBrowserLayoutEffect(() => {
    const node = track.current;
    const first = indexRef.current;
    if (node && first > 0) node.scrollLeft = inlineSign(node) * first * node.clientWidth;
  }, []);

  // Near the screen (within a screen's height): the next photo is fetched before it is asked for.
  useEffect(() => {
    const node = root.current;
    if (!node || near || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '100% 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [near]);

  // A move made the focused control inert or hidden: focus what stands in its place.
  useBrowserLayoutEffect(() => {
    const after = focusAfter.current;
    focusAfter.current = null;
    if (!after) return;
    const shown = track.current?.children[index] as HTMLElement | undefined;
    const target =
      after === 'previous' && index > 0
        ? previous.current
        : after === 'next' && index < count - 1
          ? next.current
          : after === 'slide'
            ? (shown?.querySelector<HTMLElement>('a[href], button') ?? shown)
            : index > 0
              ? previous.current
              : next.current;
    target?.focus({ preventScroll: true });
  }, [index, count]);

  const go = useCallback(
    (to: number, after: FocusAfter = null) => {
      const target = clamp(to, count);
      const node = track.current;
      if (node && typeof node.scrollTo === 'function') {
        heading.current = target;
        node.scrollTo({
          left: inlineSign(node) * target * node.clientWidth,
          behavior: prefersReducedMotion() ? 'auto' : 'smooth',
        });
      }
      // The focused button vanishes at either end: focus the other one.
      focusAfter.current =
        after === 'next' && target === count - 1 ? 'previous' : after === 'previous' && target === 0 ? 'next' : after;
      if (target === indexRef.current) focusAfter.current = null;
      setIndex(target);
    },
    [count],
  );

  const onScroll = useCallback(() => {
    const node = track.current;
    if (!node || node.clientWidth === 0) return;
    // Right to left, the track scrolls to negative offsets: the photo is the distance from the start.
    const offset = Math.abs(node.scrollLeft);
    const at = clamp(Math.round(offset / node.clientWidth), count);
    // A button's smooth scroll passes the photos between: the index stays where it is heading.
    if (heading.current !== null) {
      if (Math.abs(offset - heading.current * node.clientWidth) > 1) return;
      heading.current = null;
    }
    if (at === indexRef.current) return;
    // A swipe away from a photo whose link had focus (it becomes inert): focus the new one.
    if (node.contains(document.activeElement)) focusAfter.current = 'slide';
    setIndex(at);
  }, [count]);

  // A swipe or a wheel during a button's scroll ends it elsewhere: the index follows where it ended.
  useEffect(() => {
    const node = track.current;
    if (!node) return undefined;
    const ended = () => {
      heading.current = null;
      onScroll();
    };
    node.addEventListener('scrollend', ended);
    return () => node.removeEventListener('scrollend', ended);
  }, [onScroll]);

  const onKeyDown = useCallback(
    (event: KeyboardEvent | globalThis.KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      event.preventDefault();
      // The next photo is the one the reading direction goes to: to the left, right to left.
      const forward = track.current && inlineSign(track.current) < 0 ? 'ArrowLeft' : 'ArrowRight';
      const to = indexRef.current + (event.key === forward ? 1 : -1);
      if (to < 0 || to >= count) return;
      const focused = document.activeElement;
      const after: FocusAfter =
        focused === next.current
          ? 'next'
          : focused === previous.current
            ? 'previous'
            : track.current?.contains(focused)
              ? 'slide'
              : null;
      go(to, after);
    },
    [count, go],
  );

  return { index, near, root, track, previous, next, go, onScroll, onKeyDown };
}
