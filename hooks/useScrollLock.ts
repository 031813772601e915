import { useEffect } from 'react';
import { MOBILE_WIDTH_THRESHOLD_PX, SCROLL_LOCK_PADDING_PX } from '../lib/limits';

const MOBILE_AGENT = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobi/i;

/** Desktop: wider than 600px and not a mobile user agent (spec section 2). */
export function isDesktop(): boolean {
  return window.innerWidth > MOBILE_WIDTH_THRESHOLD_PX && !MOBILE_AGENT.test(navigator.userAgent);
}

/**
 * Locks the page behind an overlay: body overflow hidden, plus 17px of right padding on
 * desktop so the content does not shift where the scrollbar was. Both are restored on release.
 */
export function useScrollLock(locked: boolean): void {
  useEffect(() => {
    if (!locked) return;
    const { body } = document;
    const previous = { overflow: body.style.overflow, paddingRight: body.style.paddingRight };
    body.style.overflow = 'hidden';
    if (isDesktop()) body.style.paddingRight = `${SCROLL_LOCK_PADDING_PX}px`;
    return () => {
      body.style.overflow = previous.overflow;
      body.style.paddingRight = previous.paddingRight;
    };
  }, [locked]);
}
