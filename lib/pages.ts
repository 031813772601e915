/**
 * The page table: which pages a visitor may see, the private pages with the API reads each one
 * makes first, and how links to them are written. The server's first render
 * (server/pages/privatePages.ts), the early-reads script (pages/_document.tsx), the client guard
 * (AppShell) and every link derive from it; a new page is one entry here.
 */
import { apiUrls } from './apiUrls';
import type { FirstPageData, ListPage } from './firstLoad';
import type { AppNotification, InstanceInfo, Post, PostWithComments, Profile, User } from './types';
import { tagList } from './tags';

/** Pages a visitor who is not signed in may see; everything else sends them to `/`. */
export const PUBLIC_ROUTES: readonly string[] = ['/', '/login', '/createAccount'];

/** Pages everyone may see whatever the session: the error pages, and those the mailed links open. */
export const OPEN_ROUTES: readonly string[] = ['/404', '/_error', '/resetPassword', '/verifyEmail'];

/** Links to the pages, encoded as the routes decode them. */
export const links = {
  landing: () => '/',
  login: () => '/login',
  createAccount: () => '/createAccount',
  home: () => '/home',
  settings: () => '/settings',
  contact: () => '/contact',
  notifications: () => '/notifications',
  admin: () => '/admin',
  /** Redirects to the viewer's own profile. */
  myProfile: () => '/profile',
  profile: (username: string) => `/profile/${encodeURIComponent(username)}`,
  post: (id: string) => `/post/${encodeURIComponent(id)}`,
  tagged: (tags: readonly string[]) => `/tagged/${tags.map(encodeURIComponent).join(',')}`,
};

/** The API reads each private page's components make on its first render (the services' URLs). */
export const firstReads = {
  home: () => [apiUrls.feed('following')],
  tagged: (tags: readonly string[]) => (tags.length ? [apiUrls.tagged(tags)] : []),
  profile: (username: string) => [apiUrls.user(username), apiUrls.userPosts(username)],
  post: (id: string) => [apiUrls.post(id)],
  settings: (): string[] => [],
  contact: () => [apiUrls.instance()],
  notifications: () => [apiUrls.notifications()],
  myProfile: (): string[] => [],
  admin: (): string[] => [],
};

/** A route's params, decoded (Next.js's query, Fastify's params). */
export type Params = Record<string, string>;

/** One read's answer as the client's API modules take it: the JSON and the `Link: rel="next"` URL. */
export interface Answer {
  body: unknown;
  next: string | null;
}

/** Which image in the answer of a page's first read the page shows largest (its LCP). */
export type LargestImageIn = 'firstPost' | 'post' | 'banner';

export interface PrivatePage {
  /** The page's first reads besides the viewer's (GET /api/auth/getLoggedUser, which every page makes). */
  reads(params: Params): string[];
  /** Where the largest image is, in the answer of `reads(...)[0]`. */
  largestImageIn?: LargestImageIn;
  /** What the server hands the page, from the answers of `reads` (each a 200); none: the viewer alone. */
  firstData?(answers: Answer[], params: Params): FirstPageData;
  /** Not a page of its own: the viewer is sent on to this address. */
  redirect?(viewer: User): string;
}

const listOf = (answer: Answer): ListPage<Post> => ({ items: answer.body as Post[], next: answer.next });

/** The private pages, by Next.js route. Every other route is public or open. */
export const PRIVATE_PAGES: Readonly<Record<string, PrivatePage>> = {
  '/home': {
    reads: () => firstReads.home(),
    largestImageIn: 'firstPost',
    firstData: ([posts]) => ({ kind: 'feed', feed: 'following', posts: listOf(posts) }),
  },
  '/tagged/[tags]': {
    reads: (params) => firstReads.tagged(tagList(params.tags)),
    largestImageIn: 'firstPost',
    firstData: ([posts], params) => ({ kind: 'tagged', tags: tagList(params.tags), posts: listOf(posts) }),
  },
  '/profile/[profileName]': {
    reads: (params) => firstReads.profile(params.profileName),
    largestImageIn: 'banner',
    firstData: ([found, posts]) => ({
      kind: 'profile',
      profile: (found.body as { user: Profile }).user,
      posts: listOf(posts),
    }),
  },
  '/post/[id]': {
    reads: (params) => firstReads.post(params.id),
    largestImageIn: 'post',
    firstData: ([post]) => ({ kind: 'post', post: post.body as PostWithComments, commentsNext: post.next }),
  },
  /** The forms show the viewer's own account, which every private page reads anyway. */
  '/settings': { reads: () => firstReads.settings() },
  '/contact': {
    reads: () => firstReads.contact(),
    firstData: ([instance]) => ({ kind: 'contact', instance: instance.body as InstanceInfo }),
  },
  '/notifications': {
    reads: () => firstReads.notifications(),
    firstData: ([list]) => ({
      kind: 'notifications',
      notifications: { items: list.body as AppNotification[], next: list.next },
    }),
  },
  '/profile': { reads: () => firstReads.myProfile(), redirect: (viewer) => links.profile(viewer.username) },
  /** Admins only: the panel reads the queue and the log after the first render. */
  '/admin': { reads: () => firstReads.admin() },
};

/** A read the early-reads script starts, and where the page's largest image is in its answer. */
export interface EarlyRead {
  url: string;
  largestImageIn?: LargestImageIn;
}

/**
 * The reads a page's document starts before the app's code arrives: the viewer, then the page's
 * first reads; the viewer alone when the params cannot make a URL. Null on the public and open
 * pages: a visitor's lookup there would be a 401 in the console of a page anyone may open, the
 * mailed links' pages arrive with their viewer from the server, and the 404 looks its viewer up
 * after hydration.
 */
export function earlyReadsOf(route: string, query: Record<string, string | string[] | undefined>): EarlyRead[] | null {
  if (PUBLIC_ROUTES.includes(route) || OPEN_ROUTES.includes(route)) return null;
  const reads: EarlyRead[] = [{ url: apiUrls.loggedUser() }];
  const page = PRIVATE_PAGES[route];
  if (!page) return reads;
  const params: Params = {};
  for (const [key, value] of Object.entries(query)) if (typeof value === 'string') params[key] = value;
  let urls: string[];
  try {
    urls = page.reads(params);
  } catch {
    return reads;
  }
  urls.forEach((url, i) =>
    reads.push(i === 0 && page.largestImageIn ? { url, largestImageIn: page.largestImageIn } : { url }),
  );
  return reads;
}
