import Router from 'next/router';
import { useEffect } from 'react';

/** A plain click on a link of the app, which the app's router would follow (AppLink). */
function appLinkOf(event: MouseEvent): HTMLAnchorElement | null {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
  const href = link?.getAttribute('href') ?? '';
  if (!link || !href.startsWith('/') || href.startsWith('//') || (link.target && link.target !== '_self')) return null;
  return link;
}

/**
 * While `unsaved`, leaving the page asks first (issue 68, item 23: a staged "Remove avatar" was
 * lost without a word): the browser's own prompt for a reload, a close or another address, and a
 * confirm for the app's links, asked before their click reaches the router (declined: the click
 * is stopped there, so no navigation starts). Any other navigation of the router (Back, a
 * redirect in code) asks at its start, and a "no" aborts it as Next documents: by throwing.
 * `message` is the app's own confirm (a browser says its own words before a reload or a close).
 */
export function useLeaveGuard(unsaved: boolean, message: string): void {
  useEffect(() => {
    if (!unsaved) return;
    let asked = false;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium asks only when returnValue is set.
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      if (!appLinkOf(event)) return;
      if (window.confirm(message)) {
        asked = true;
        return;
      }
      event.preventDefault();
      event.stopPropagation();
    };
    const onRouteChangeStart = (url: string) => {
      if (asked || url.split('#')[0] === Router.asPath.split('#')[0]) return;
      if (window.confirm(message)) return;
      Router.events.emit('routeChangeError', new Error('Leaving Settings cancelled'), url, { shallow: false });
      throw new Error('Leaving Settings cancelled');
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    // Capture, on the window: before React's handler on the page's root follows the link.
    window.addEventListener('click', onClick, true);
    Router.events.on('routeChangeStart', onRouteChangeStart);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('click', onClick, true);
      Router.events.off('routeChangeStart', onRouteChangeStart);
    };
  }, [unsaved, message]);
}
