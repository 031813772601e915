/**
 * The private pages (`/home`, `/profile/:name`, `/tagged/:tags`, `/post/:id`, `/settings`,
 * `/contact`) rendered on the server with their first data, so the HTML already holds the posts
 * and the image that is the page's largest paint, the settings forms filled in, or the instance's
 * address (docs/frontend.md, Session and Performance). `/profile` (my own profile) redirects to
 * `/profile/{my username}` at once.
 *
 * - Visitors (no session cookie) are redirected to `/` before anything is read.
 * - The reads are the API's own routes run in-process (`app.inject`) with the viewer's access
 *   token: the same guards, services, serializers and `Link` headers the browser would get, so
 *   the store starts exactly where the client's own reads would have left it.
 * - Every answer is `Cache-Control: private, no-store`: no shared cache may keep it, and the back
 *   button after a logout asks the server again (which redirects).
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { SERVER_DATA_KEY, type ListPage, type ServerData, type ServerPageData } from '../../lib/firstLoad';
import { nextLink } from '../../lib/links';
import type { InstanceInfo, Post, PostWithComments, Profile, User } from '../../lib/types';
import { normalizeTags } from '../../lib/validation';
import { ACCESS_COOKIE } from '../auth/cookies';
import { pageSessions } from './session';

export type RenderPage = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export const PRIVATE_NO_STORE = 'private, no-store';

interface Answer<T> {
  body: T;
  next: string | null;
}
/** One API read as the viewer; null for anything but 200. */
type Read = <T>(url: string) => Promise<Answer<T> | null>;

function reader(app: FastifyInstance, accessToken: string): Read {
  return async <T>(url: string) => {
    const response = await app.inject({
      method: 'GET', url, headers: { cookie: `${ACCESS_COOKIE}=${accessToken}`, accept: 'application/json' },
    });
    if (response.statusCode !== 200) return null;
    return { body: response.json() as T, next: nextLink(response.headers.link) };
  };
}

const listOf = <T>(answer: Answer<T[]> | null): ListPage<T> | null => answer && { items: answer.body, next: answer.next };

type Params = Record<string, string>;

/** Each page's first reads: the URLs its components ask for (services/postsApi.ts, usersApi.ts). */
const PAGES: Record<string, (read: Read, params: Params) => Promise<ServerPageData | null>> = {
  async '/home'(read) {
    const posts = listOf(await read<Post[]>('/api/posts?feed=following'));
    return posts && { kind: 'feed', feed: 'following', posts };
  },
  async '/tagged/:tags'(read, params) {
    // As pages/tagged/[tags].tsx reads its tags.
    const tags = normalizeTags(params.tags.split(',')).filter(Boolean);
    if (tags.length === 0) return null;
    const posts = listOf(await read<Post[]>(`/api/posts/tagged?${new URLSearchParams({ tags: tags.join(',') })}`));
    return posts && { kind: 'tagged', tags, posts };
  },
  async '/profile/:profileName'(read, params) {
    const found = await read<{ user: Profile }>(`/api/users/${encodeURIComponent(params.profileName)}`);
    if (!found) return null;
    const profile = found.body.user;
    // The posts list is keyed by the profile's own spelling of the name (components/profile/ProfileView.tsx).
    const posts = listOf(await read<Post[]>(`/api/users/${encodeURIComponent(profile.username)}/posts`));
    return posts && { kind: 'profile', profile, posts };
  },
  /** The forms show the viewer's own account, which every private page reads anyway. */
  async '/settings'() {
    return null;
  },
  async '/contact'(read) {
    const instance = await read<InstanceInfo>('/api/instance');
    return instance && { kind: 'contact', instance: instance.body };
  },
  async '/post/:id'(read, params) {
    const post = await read<PostWithComments>(`/api/posts/${encodeURIComponent(params.id)}`);
    return post && { kind: 'post', post: post.body, commentsNext: post.next };
  },
};

export const privatePages: FastifyPluginAsync<{ render: RenderPage }> = async (app, { render }) => {
  const pageViewer = pageSessions(app);

  /**
   * A private page's route: no-store, visitors to `/`, and for a signed-in viewer `answer` with
   * reads as that viewer, which may send the reply itself (a redirect). Otherwise Next.js renders
   * the page: with the data `answer` left on the request, or without any (a renewal that failed
   * here) as the client shell.
   */
  const privateRoute = (url: string, answer: (read: Read, request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => Promise<unknown>) => {
    app.get<{ Params: Params }>(url, { schema: { hide: true } }, async (request, reply) => {
      reply.header('Cache-Control', PRIVATE_NO_STORE);
      const viewer = await pageViewer(request, reply);
      if (viewer.kind === 'visitor') return reply.redirect('/', 302);
      if (viewer.kind === 'signedIn') await answer(reader(app, viewer.accessToken), request, reply);
      if (!reply.sent) await render(request, reply);
    });
  };

  for (const [url, firstReads] of Object.entries(PAGES)) {
    privateRoute(url, async (read, request) => {
      const [user, page] = await Promise.all([read<User>('/api/auth/getLoggedUser'), firstReads(read, request.params).catch(() => null)]);
      if (user) {
        const data: ServerData = { user: user.body, page };
        (request.raw as unknown as Record<symbol, ServerData>)[SERVER_DATA_KEY] = data;
      }
    });
  }

  // The way into my own profile: straight to it, instead of a page whose only job is to navigate on.
  privateRoute('/profile', async (read, _request, reply) => {
    const user = await read<User>('/api/auth/getLoggedUser');
    if (user) await reply.redirect(`/profile/${encodeURIComponent(user.body.username)}`, 302);
  });
};
