/**
 * Back and Forward inside the app (issue 68, item 1): which navigation brought the page on screen,
 * and the scroll position of each history entry, put back when the reader returns to it.
 *
 * Next's pages router scrolls every navigation to the top, Back included, and the browser's own
 * restoration runs before the page it returns to has rendered its list (the height is not there
 * yet). So the app restores it itself: the position is kept per history entry (Next's
 * `history.state.key`, which a `router.replace` keeps) as the reader leaves it, and on Back or
 * Forward it is put back once the page is tall enough, frame by frame, until the reader scrolls,
 * types or touches the screen, or a few seconds have passed. Kept in memory: a reload starts at
 * the top, as a fresh visit does.
 */
import type { Router } from 'next/router';

/** How long the restore waits for the page to be tall enough. */
export const RESTORE_WAIT_MS = 8000;
/** Frames the position must hold once reached (a late commit may scroll to the top again). */
const HOLD_FRAMES = 12;

const positions = new Map<string, number>();
let currentKey: string | null = null;
let popPending = false;
let arrivedByHistory = false;
/** The page said it shows something else than when it was left: no restore for this navigation. */
let startAtTop = false;
let cancelRestore: (() => void) | null = null;

const entryKey = (): string | null => {
  const state = window.history.state as { key?: unknown } | null;
  return typeof state?.key === 'string' ? state.key : null;
};

/** True while the page on screen was reached with Back or Forward (not a link, a reload or a first load). */
export function cameByHistory(): boolean {
  return arrivedByHistory;
}

/**
 * The page will not show what it showed when the reader left (its list was read afresh): the scroll
 * position waiting to be restored is dropped, and the page starts at the top.
 */
export function forgetScrollRestore(): void {
  startAtTop = true;
  cancelRestore?.();
}

function restore(y: number): void {
  cancelRestore?.();
  const started = performance.now();
  let frame = 0;
  let held = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const)
      window.removeEventListener(type, stop, true);
    if (cancelRestore === stop) cancelRestore = null;
  };
  const step = () => {
    const room = document.documentElement.scrollHeight - window.innerHeight;
    if (room >= y - 1) {
      if (Math.abs(window.scrollY - y) > 1) {
        window.scrollTo(0, y);
        held = 0;
      } else held += 1;
      if (held >= HOLD_FRAMES) return stop();
    } else if (performance.now() - started > RESTORE_WAIT_MS) return stop();
    frame = requestAnimationFrame(step);
  };
  cancelRestore = stop;
  for (const type of ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const)
    window.addEventListener(type, stop, { capture: true, passive: true });
  frame = requestAnimationFrame(step);
}

/** Starts watching the router (once, from AppShell); returns what stops it. */
export function watchHistory(router: Pick<Router, 'events' | 'beforePopState'>): () => void {
  // The app puts the position back itself; the browser's attempt would land before the list.
  const manual = 'scrollRestoration' in window.history;
  if (manual) window.history.scrollRestoration = 'manual';
  currentKey = entryKey();
  router.beforePopState(() => {
    popPending = true;
    return true;
  });
  const onStart = () => {
    // The entry being left (on Back, history.state is already the one returned to).
    if (currentKey !== null) positions.set(currentKey, window.scrollY);
    currentKey = null;
    arrivedByHistory = popPending;
    popPending = false;
    startAtTop = false;
    cancelRestore?.();
  };
  const onComplete = () => {
    currentKey = entryKey();
    if (!arrivedByHistory || startAtTop || currentKey === null) return;
    const y = positions.get(currentKey);
    if (y !== undefined && y > 0) restore(y);
  };
  const onError = () => {
    currentKey = entryKey();
  };
  router.events.on('routeChangeStart', onStart);
  router.events.on('routeChangeComplete', onComplete);
  router.events.on('routeChangeError', onError);
  return () => {
    router.events.off('routeChangeStart', onStart);
    router.events.off('routeChangeComplete', onComplete);
    router.events.off('routeChangeError', onError);
    router.beforePopState(() => true);
    cancelRestore?.();
    if (manual) window.history.scrollRestoration = 'auto';
  };
}
