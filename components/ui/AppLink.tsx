import Link from 'next/link';
import { type ComponentProps, forwardRef } from 'react';

/**
 * `next/link` that prefetches on hover or touch instead of when it scrolls into view. A pages-router
 * prefetch does not only download the target page's code: it also evaluates it in an idle
 * callback, and on a phone that is a long task (the sign-in form's formik + yup on the landing page,
 * every post page's code under a feed) right when the page should become interactive.
 */
export const AppLink = forwardRef<HTMLAnchorElement, ComponentProps<typeof Link>>(function AppLink(props, ref) {
  return <Link prefetch={false} {...props} ref={ref} />;
});
