/**
 * The private pages of the page table (lib/pages.ts: `/home`, `/profile/:name`, `/tagged/:tags`,
 * `/post/:id`, `/settings`, `/contact`) rendered on the server with their first data, so the HTML already holds the posts
 * and the image that is the page's largest paint, the settings forms filled in, or the instance's
 * address (docs/frontend.md, Session and Performance). `/profile` (my own profile) redirects to
 * `/profile/{my username}` at once; `/admin` sends a member to `/home`.
 *
 * - Visitors (no session cookie) are sent to sign in before anything is read, with the page they
 *   asked for as `/login?next=` so the sign-in returns there (issue 68, item 3); a public post's
 *   address shows them its preview instead (publicPreview.ts).
 * - The reads are the page table's first reads (the URLs the client's API modules ask for), the API's own routes run in-process (`app.inject`) with the viewer's access
 *   token: the same guards, services, serializers and `Link` headers the browser would get, so
 *   the store starts exactly where the client's own reads would have left it.
 * - Every answer is `Cache-Control: private, no-store`: no shared cache may keep it, and the back
 *   button after a logout asks the server again (which redirects).
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { apiUrls } from '../../lib/apiUrls';
import { FIRST_LOAD_KEY, type FirstLoad, type FirstPageData } from '../../lib/firstLoad';
import { nextLink } from '../../lib/links';
import { links } from '../../lib/pages';
import { PRIVATE_PAGES, type Answer, type Params, type PrivatePage } from '../../lib/pageReads';
import type { User } from '../../lib/types';
import { ACCESS_COOKIE } from '../auth/cookies';
import type { AuthService } from '../auth/service';
import type { Config } from '../config';
import { PRIVATE_NO_STORE } from '../http/securityHeaders';
import { pageSessions } from './session';

export type RenderPage = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** What a visitor gets at a private page's address instead of the sign-in redirect; false: the redirect after all. */
export type VisitorPage = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => Promise<boolean>;

/** One API read as the viewer; null for anything but 200. */
type Read = (url: string) => Promise<Answer | null>;

function reader(app: FastifyInstance, accessToken: string): Read {
  return async (url: string) => {
    const response = await app.inject({
      method: 'GET',
      url,
      headers: { cookie: `${ACCESS_COOKIE}=${accessToken}`, accept: 'application/json' },
    });
    if (response.statusCode !== 200) return null;
    return { body: response.json(), next: nextLink(response.headers.link) };
  };
}

/** A Next.js route (`/post/[id]`) as a Fastify one (`/post/:id`). */
const fastifyRoute = (route: string) => route.replace(/\[(\w+)\]/g, ':$1');

/**
 * The route's params with the address's query (the home feed's `feed`); a param wins over a query
 * field of the same name, as in Next.js's `router.query`. Repeated fields are left out.
 */
function paramsOf(request: FastifyRequest<{ Params: Params }>): Params {
  const params: Params = {};
  const query = request.query as Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(query ?? {})) if (typeof value === 'string') params[key] = value;
  return { ...params, ...request.params };
}

/** The page's first reads, as the viewer, made into what the page shows first; null when it reads nothing or a read failed. */
async function firstPageData(page: PrivatePage, read: Read, params: Params): Promise<FirstPageData | null> {
  const urls = page.reads(params);
  if (!page.firstData || urls.length === 0) return null;
  const answers = await Promise.all(urls.map(read));
  return answers.every((answer) => answer !== null) ? page.firstData(answers as Answer[], params) : null;
}

export const privatePages: FastifyPluginAsync<{
  render: RenderPage;
  auth: Pick<AuthService, 'authenticate' | 'refresh'>;
  config: Config;
  /** By the page table's route (`/post/[id]`): what a visitor sees there (publicPreview.ts). */
  visitorPages?: Record<string, VisitorPage>;
}> = async (app, { render, auth, config, visitorPages = {} }) => {
  const pageViewer = pageSessions(app, { auth, config });

  /**
   * A private page's route: no-store, visitors to sign in (or `visitorPage`), and for a signed-in viewer `answer` with
   * reads as that viewer, which may send the reply itself (a redirect). Otherwise Next.js renders
   * the page: with the data `answer` left on the request, or without any (a renewal that failed
   * here) as the client shell.
   */
  const privateRoute = (
    url: string,
    answer: (read: Read, request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => Promise<unknown>,
    visitorPage?: VisitorPage,
  ) => {
    app.get<{ Params: Params }>(url, { schema: { hide: true } }, async (request, reply) => {
      reply.header('Cache-Control', PRIVATE_NO_STORE);
      const viewer = await pageViewer(request, reply);
      if (viewer.kind === 'visitor') {
        if (visitorPage && (await visitorPage(request, reply))) return;
        return reply.redirect(links.login(request.url), 302);
      }
      if (viewer.kind === 'signedIn') await answer(reader(app, viewer.accessToken), request, reply);
      if (!reply.sent) await render(request, reply);
    });
  };

  // Every private page of the table (lib/pages.ts), with its first reads; `/profile` only redirects.
  for (const [route, page] of Object.entries(PRIVATE_PAGES)) {
    privateRoute(
      fastifyRoute(route),
      async (read, request, reply) => {
        const [viewer, data] = await Promise.all([
          viewerOf(read),
          page.redirect ? null : firstPageData(page, read, paramsOf(request)).catch(() => null),
        ]);
        if (!viewer) return;
        if (page.redirect) return reply.redirect(page.redirect(viewer.user), 302);
        // As a visitor is sent away from a private page, so is a member from an admin's one (issue 36).
        if (page.allowed && !page.allowed(viewer.user)) return reply.redirect(links.home(), 302);
        handOver(request, { ...viewer, page: data });
      },
      visitorPages[route],
    );
  }

  // The pages the mailed links open are anyone's (OPEN_ROUTES), but a signed-in viewer's arrives
  // with its navbar, banner and texts in place, as a private page's does: the HTML is the page.
  for (const url of MAIL_LINK_PAGES) {
    app.get(url, { schema: { hide: true } }, async (request, reply) => {
      reply.header('Cache-Control', PRIVATE_NO_STORE);
      const session = await pageViewer(request, reply);
      const viewer = session.kind === 'signedIn' ? await viewerOf(reader(app, session.accessToken)) : null;
      if (viewer) handOver(request, { ...viewer, page: null });
      await render(request, reply);
    });
  }

  // `/` is the visitors' landing page (spec: the logged-out navbar); a signed-in member goes home.
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const session = request.cookies[ACCESS_COOKIE] ? await auth.authenticate(request.cookies[ACCESS_COOKIE]) : null;
    if (session) {
      reply.header('Cache-Control', PRIVATE_NO_STORE);
      return reply.redirect(links.home(), 302);
    }
    await render(request, reply);
  });
};

/** The open pages a mail links to (lib/pages.ts OPEN_ROUTES). */
const MAIL_LINK_PAGES = ['/resetPassword', '/verifyEmail'];

/** The viewer and their unread count, read as the navbar would; null when the session did not hold. */
async function viewerOf(read: Read): Promise<Pick<FirstLoad, 'user' | 'unread'> | null> {
  const [user, unread] = await Promise.all([read(apiUrls.loggedUser()), read(UNREAD_URL)]);
  if (!user) return null;
  return { user: user.body as User, unread: (unread?.body as { count: number } | undefined)?.count ?? 0 };
}

/** The notifications' own URL (features/notifications/state/notificationsApi.ts); kept out of lib/apiUrls, which every page loads. */
const UNREAD_URL = '/api/notifications/unread';

/** Leaves the first load on the request for the page's getServerSideProps (lib/firstLoad.ts). */
function handOver(request: FastifyRequest, firstLoad: FirstLoad): void {
  (request.raw as unknown as Record<symbol, FirstLoad>)[FIRST_LOAD_KEY] = firstLoad;
}
