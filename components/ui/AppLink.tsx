import Router from 'next/router';
import { type AnchorHTMLAttributes, forwardRef, type MouseEvent, type TouchEvent } from 'react';

export interface AppLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A path of the app (`links.*`); anything else is left to the browser. */
  href: string;
  replace?: boolean;
  /** Scroll to the top after the navigation (the router's default). */
  scroll?: boolean;
}

/** A path the router serves: same origin, not protocol-relative. */
const isAppPath = (href: string) => href.startsWith('/') && !href.startsWith('//');

function prefetch(href: string): void {
  if (isAppPath(href)) Router.prefetch(href).catch(() => {});
}

/** A click the browser should handle itself: a new tab or window, a download, another button. */
function isModified(event: MouseEvent<HTMLAnchorElement>): boolean {
  const target = event.currentTarget.getAttribute('target');
  return (
    (target !== null && target !== '_self') ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey ||
    event.button !== 0 ||
    event.currentTarget.hasAttribute('download')
  );
}

/**
 * An `<a>` whose plain clicks are client-side navigations (the pages router's `push`), prefetching
 * on hover or touch, never when it scrolls into view. A pages-router prefetch does not only download
 * the target page's code: it also evaluates it in an idle callback, a long task on a phone right
 * when the page should become interactive. Not `next/link`: its per-link hooks (router context, an
 * IntersectionObserver for viewport prefetching, merged refs) ran for every link of a feed while
 * hydrating, and its code was 2.7 kB gzip of every page's first load (docs/frontend.md, Performance).
 */
export const AppLink = forwardRef<HTMLAnchorElement, AppLinkProps>(function AppLink(
  { href, replace = false, scroll, onClick, onMouseEnter, onTouchStart, children, ...rest },
  ref,
) {
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || isModified(event) || !isAppPath(href)) return;
    event.preventDefault();
    void Router[replace ? 'replace' : 'push'](href, undefined, { scroll: scroll ?? true });
  };
  const hover = (event: MouseEvent<HTMLAnchorElement>) => {
    onMouseEnter?.(event);
    prefetch(href);
  };
  const touch = (event: TouchEvent<HTMLAnchorElement>) => {
    onTouchStart?.(event);
    prefetch(href);
  };
  return (
    <a {...rest} ref={ref} href={href} onClick={click} onMouseEnter={hover} onTouchStart={touch}>
      {children}
    </a>
  );
});
