/**
 * The first data of a private page, read by the server before Next.js renders it
 * (server/pages/privatePages.ts) and handed to the page's getServerSideProps on the request object.
 * Isomorphic and free of server imports: the pages' bundles include it.
 *
 * Every value is an API answer exactly as the client would have received it (same URL, same JSON,
 * `next` from the same `Link` header), so the store starts in the state the client would have
 * reached by reading the API itself (store/serverData.ts).
 */
import { POST_IMAGE_SIZES } from './earlyReadsScript';
import type { InstanceInfo, Post, PostWithComments, Profile, User } from './types';

/** Where the server leaves the data on the Node request; `Symbol.for`, as Next's bundle and the server are separate module graphs. */
export const SERVER_DATA_KEY = Symbol.for('posts.serverData');

export interface ListPage<T> {
  items: T[];
  next: string | null;
}

/** What each private page shows first, as its components ask for it. */
export type ServerPageData =
  | { kind: 'feed'; feed: 'following'; posts: ListPage<Post> }
  | { kind: 'tagged'; tags: string[]; posts: ListPage<Post> }
  | { kind: 'profile'; profile: Profile; posts: ListPage<Post> }
  | { kind: 'post'; post: PostWithComments; commentsNext: string | null }
  | { kind: 'contact'; instance: InstanceInfo };

export interface ServerData {
  /** The signed-in viewer (from the session cookie only). */
  user: User;
  /**
   * Null when the page shows nothing beyond the viewer (settings), or when a read failed (e.g. no
   * such post): the page then reads and reports it itself.
   */
  page: ServerPageData | null;
}

/** The data the server left on this request, or null (a client-side navigation, or no server data). */
export function serverDataOf(req: object): ServerData | null {
  return (req as Record<symbol, ServerData | undefined>)[SERVER_DATA_KEY] ?? null;
}

/** Props of a private page: `serverData` is null when the browser reads everything itself. */
export interface PrivatePageProps {
  serverData: ServerData | null;
}

/**
 * getServerSideProps of the private pages. The server has already decided the session (and
 * redirected visitors); this only hands its reads to the page. Data requests of client-side
 * navigations (`/_next/data/…`) carry none: the store already holds the session and the page
 * reads its own data, as before.
 */
export async function privatePageProps({ req }: { req: object }): Promise<{ props: PrivatePageProps }> {
  return { props: { serverData: serverDataOf(req) } };
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
export function largestImage(data: ServerData | null): LargestImage | null {
  const page = data?.page;
  if (!page || page.kind === 'contact') return null;
  if (page.kind === 'profile') return page.profile.banner ? { href: page.profile.banner } : null;
  const post = page.kind === 'post' ? page.post : page.posts.items[0];
  if (!post) return null;
  return post.imageInfo?.srcset ? { href: post.image, srcSet: post.imageInfo.srcset, sizes: POST_IMAGE_SIZES } : { href: post.image };
}
