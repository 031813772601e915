/**
 * What the server hands a private page it renders with its first data (server/pages/privatePages.ts
 * reads it, the page's getServerSideProps passes it on, store/firstLoad.ts builds the store from it).
 * Isomorphic and free of server imports: the pages' bundles include it.
 *
 * Every value is an API answer exactly as the client would have received it (same URL, same JSON,
 * `next` from the same `Link` header), so the store starts in the state the client would have
 * reached by reading the API itself.
 */
import type { PageIntl } from './i18n/pageIntlTypes';
import type { Feed } from './apiUrls';
import { coverScale, feedRatio, scaledSizes } from './photoBox';
import type { AppNotification, Explore, InstanceInfo, Post, PostWithComments, Profile, User } from './types';

/** Where the server leaves the data on the Node request; `Symbol.for`, as Next's bundle and the server are separate module graphs. */
export const FIRST_LOAD_KEY = Symbol.for('posts.firstLoad');

/** The `sizes` of a post card's image (components/posts/PostImage.tsx), so a preload picks the same file. */
export const POST_IMAGE_SIZES = '(min-width: 640px) 600px, 100vw';

export interface ListPage<T> {
  items: T[];
  next: string | null;
}

/** What each private page shows first, as its components ask for it (lib/pages.ts). */
export type FirstPageData =
  | { kind: 'feed'; feed: Feed; posts: ListPage<Post> }
  /** `following`: whether the viewer follows the one tag shown (issue 73); absent for several tags or a bad one. */
  | { kind: 'tagged'; tags: string[]; posts: ListPage<Post>; following?: boolean }
  | { kind: 'saved'; posts: ListPage<Post> }
  /** `postsNext`: where the trending posts' next page is (null: none). */
  | { kind: 'explore'; explore: Explore; postsNext: string | null }
  | { kind: 'profile'; profile: Profile; posts: ListPage<Post> }
  | { kind: 'post'; post: PostWithComments; commentsNext: string | null }
  | { kind: 'contact'; instance: InstanceInfo }
  | { kind: 'notifications'; notifications: ListPage<AppNotification> };

export interface FirstLoad {
  /** The signed-in viewer (from the session cookie only). */
  user: User;
  /** The viewer's unread notifications, so the bells' badge is in the first paint (`GET /api/notifications/unread`). */
  unread: number;
  /**
   * Null when the page shows nothing beyond the viewer (settings), or when a read failed (e.g. no
   * such post): the page then reads and reports it itself.
   */
  page: FirstPageData | null;
}

/** The data the server left on this request, or null (a client-side navigation, or no data). */
export function firstLoadOf(req: object): FirstLoad | null {
  return (req as Record<symbol, FirstLoad | undefined>)[FIRST_LOAD_KEY] ?? null;
}

/** Props of a private page: `firstLoad` is null when the browser reads everything itself. */
export interface PrivatePageProps {
  firstLoad: FirstLoad | null;
  /** The page's language and its messages (lib/pageProps.ts). */
  intl: PageIntl;
}

export interface LargestImage {
  href: string;
  srcSet?: string;
  sizes?: string;
}

/**
 * The image a server-rendered page shows largest (its LCP): the first post's, or the profile's
 * banner. The document requests it before its scripts (pages/_document.tsx): on HTTP/1.1 a browser
 * opens six connections to a host, and the image would otherwise queue behind the app's scripts.
 */
export function largestImage(data: FirstLoad | null): LargestImage | null {
  const page = data?.page;
  // Explore's posts come below its tags and people: no image of them is the first paint's largest.
  if (!page || page.kind === 'contact' || page.kind === 'notifications' || page.kind === 'explore') return null;
  if (page.kind === 'profile') return page.profile.banner ? { href: page.profile.banner } : null;
  const post = page.kind === 'post' ? page.post : page.posts.items[0];
  if (!post) return null;
  const info = post.imageInfo;
  if (!info?.srcset) return { href: post.image };
  // As PostImage asks: a feed's photo wider than its box is drawn wider (lib/photoBox.ts).
  const scale = page.kind === 'post' ? 1 : coverScale(info.width, info.height, feedRatio(info.width, info.height));
  return { href: post.image, srcSet: info.srcset, sizes: scaledSizes(POST_IMAGE_SIZES, scale) };
}
