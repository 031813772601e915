/**
 * The page table: which pages a visitor may see and how links to them are written; the private
 * pages' first reads are lib/pageReads.ts. The client guard (AppShell) and every link derive from
 * it. Everything here is in every page's first load: what only the server needs lives beside it.
 */

import type { Feed } from './apiUrls';
import { profilePath } from './handles';
import { loginPath, withNext } from './nextPath';

/**
 * The home feed's tab is in its address: Everyone is `/home?feed=everyone`, Following the plain
 * `/home` (issue 68: Back, a reload and a link keep the tab). Anything else is Following.
 */
export const HOME_FEED_PARAM = 'feed';
export const homeFeedOf = (param: unknown): Feed => (param === 'everyone' ? 'all' : 'following');

/** Pages a visitor who is not signed in may see; everything else sends them to sign in (`/login?next=`). */
export const PUBLIC_ROUTES: readonly string[] = ['/', '/login', '/createAccount'];

/** The pages that say what went wrong: not found (server/pages/nextRoutes.ts), a server's failure. */
export const ERROR_ROUTES: readonly string[] = ['/404', '/notFound', '/500', '/_error'];

/** Pages everyone may see whatever the session: the error pages, and those the mailed links open. */
export const OPEN_ROUTES: readonly string[] = [...ERROR_ROUTES, '/resetPassword', '/verifyEmail'];

/** Links to the pages, encoded as the routes decode them. */
export const links = {
  landing: () => '/',
  /** The sign-in page; with `next`, it returns there once signed in (a same-site path only: lib/nextPath.ts). */
  login: (next?: unknown) => loginPath(next),
  /** The sign-up page, carrying the sign-in's `next` along. */
  createAccount: (next?: unknown) => withNext('/createAccount', next),
  /** The home feed, on Everyone when `feed` is `all`. */
  home: (feed: Feed = 'following') => (feed === 'all' ? `/home?${HOME_FEED_PARAM}=everyone` : '/home'),
  settings: () => '/settings',
  contact: () => '/contact',
  notifications: () => '/notifications',
  /** The viewer's saved posts (issue 73). */
  saved: () => '/saved',
  /** Trending posts and tags, people to follow (issue 73). */
  explore: () => '/explore',
  admin: () => '/admin',
  /** Redirects to the viewer's own profile. */
  myProfile: () => '/profile',
  profile: (username: string) => profilePath(username),
  post: (id: string) => `/post/${encodeURIComponent(id)}`,
  tagged: (tags: readonly string[]) => `/tagged/${tags.map(encodeURIComponent).join(',')}`,
};
