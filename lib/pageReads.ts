/**
 * The private pages with the API reads each one makes first and what the server hands the page
 * from their answers. The server's first render (server/pages/privatePages.ts) and the early-reads
 * script (lib/earlyReadsScript.ts, pages/_document.tsx) derive from it; a new private page is one
 * entry here (and its route in nothing else). Only the server reads it: apart from lib/pages.ts,
 * whose every byte is in the shared first load.
 */
import { apiUrls, type Feed } from './apiUrls';
import type { FirstPageData, ListPage } from './firstLoad';
import { profileNameOf } from './handles';
import { HOME_FEED_PARAM, homeFeedOf, links } from './pages';
import type { AppNotification, Explore, InstanceInfo, Post, PostWithComments, Profile, User } from './types';
import { tagList } from './tags';
import { followable } from './validation';

/** The API reads each private page's components make on its first render (the services' URLs). */
export const firstReads = {
  home: (feed: Feed = 'following') => [apiUrls.feed(feed)],
  /** One tag that can be followed: whether the viewer does too (its page's Follow button, issue 73). */
  tagged: (tags: readonly string[]) =>
    tags.length === 0 ? [] : followable(tags) ? [apiUrls.tagged(tags), apiUrls.tag(tags[0])] : [apiUrls.tagged(tags)],
  profile: (username: string) => [apiUrls.user(username), apiUrls.userPosts(username)],
  post: (id: string) => [apiUrls.post(id)],
  settings: (): string[] => [],
  contact: () => [apiUrls.instance()],
  notifications: () => [apiUrls.notifications()],
  saved: () => [apiUrls.saved()],
  explore: () => [apiUrls.explore()],
  myProfile: (): string[] => [],
  admin: (): string[] => [],
};

/** A route's params and its address's query (`feed` on /home), decoded (Next.js's query; Fastify's params and query). */
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
  /** Who may open it (none: every signed-in viewer); the server sends anyone else to their home page. */
  allowed?(viewer: User): boolean;
}

const listOf = (answer: Answer): ListPage<Post> => ({ items: answer.body as Post[], next: answer.next });

/** The private pages, by Next.js route. Every other route is public or open. */
export const PRIVATE_PAGES: Readonly<Record<string, PrivatePage>> = {
  '/home': {
    reads: (params) => firstReads.home(homeFeedOf(params[HOME_FEED_PARAM])),
    largestImageIn: 'firstPost',
    firstData: ([posts], params) => ({ kind: 'feed', feed: homeFeedOf(params[HOME_FEED_PARAM]), posts: listOf(posts) }),
  },
  '/tagged/[tags]': {
    reads: (params) => firstReads.tagged(tagList(params.tags)),
    largestImageIn: 'firstPost',
    firstData: ([posts, tag], params) => ({
      kind: 'tagged',
      tags: tagList(params.tags),
      posts: listOf(posts),
      ...(tag ? { following: (tag.body as { following: boolean }).following } : {}),
    }),
  },
  '/profile/[profileName]': {
    reads: (params) => firstReads.profile(profileNameOf(params.profileName)),
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
  '/saved': {
    reads: () => firstReads.saved(),
    largestImageIn: 'firstPost',
    firstData: ([posts]) => ({ kind: 'saved', posts: listOf(posts) }),
  },
  '/explore': {
    reads: () => firstReads.explore(),
    firstData: ([explore]) => ({ kind: 'explore', explore: explore.body as Explore, postsNext: explore.next }),
  },
  '/profile': { reads: () => firstReads.myProfile(), redirect: (viewer) => links.profile(viewer.username) },
  /** Admins only: the panel reads the queue and the log after the first render. */
  '/admin': { reads: () => firstReads.admin(), allowed: (viewer) => viewer.role === 'admin' },
};
