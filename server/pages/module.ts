/**
 * The pages: the build's static files, and every other path rendered by Next.js with this
 * response's CSP nonce; the private pages with their first data, a public post's preview for
 * visitors, the actor page (`app.ts` registers it when it serves pages).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { CSP_NONCE_HEADER } from '../../lib/csp';
import type { AuthService } from '../auth/service';
import type { Config } from '../config';
import { pageCsp, reactRuntimeScripts } from '../http/contentSecurity';
import { finishPage } from '../http/pageResponse';
import { staticFiles } from '../http/staticFiles';
import type { PostsService } from '../posts/service';
import type { UsersService } from '../users/service';
import { pwaRoutes } from '../pwa/routes';
import { actorPage } from './actorPage';
import { NOT_FOUND_PAGE, nextServes } from './nextRoutes';
import { type RenderPage, privatePages } from './privatePages';
import { postPreview } from './publicPreview';

export async function registerPages(
  app: FastifyInstance,
  deps: {
    config: Config;
    auth: AuthService;
    posts: PostsService;
    users: UsersService;
    /** Next's request handler. */
    handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    /** The pages' CSP header with its nonce's place (`registerRequestPipeline`). */
    pageCspTemplate: string;
    /** The build's pages (`.next/server/pages`): what Next.js serves, beside it (nextRoutes.ts). */
    pagesDir: string;
  },
) {
  const { config, handle } = deps;
  // The build's static files, precompressed (Brotli/gzip); in development Next serves its own.
  if (!config.dev) await app.register(staticFiles, { dir: path.resolve(import.meta.dirname, '../../.next/static') });
  const reactRuntime = config.dev ? null : await reactRuntimeScripts();
  const render: RenderPage = async (request, reply) => {
    // This response's nonce, for pages/_document.tsx (whatever a client sent under that name is replaced).
    const page = pageCsp(deps.pageCspTemplate);
    request.raw.headers[CSP_NONCE_HEADER] = page.nonce;
    reply.header('content-security-policy', page.header);
    if (reactRuntime) finishPage(request.raw, reply.raw, page.nonce, reactRuntime);
    // Next writes the raw response itself; carry over the headers set by hooks and routes.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value as string);
    }
    reply.hijack();
    await handle(request.raw, reply.raw);
  };
  // The private pages, rendered with their first data for a signed-in viewer.
  // A visitor at a public post's address gets its preview (and unfurlers its meta) instead of sign-in.
  const visitorPages = { '/post/[id]': postPreview(deps.posts, config) };
  await app.register(privatePages, { render, auth: deps.auth, config, visitorPages });
  await app.register(actorPage, { render, users: deps.users });
  await app.register(pwaRoutes, {
    instanceName: config.instanceName,
    distDir: config.dev ? null : path.resolve(import.meta.dirname, '../../.next'),
  });
  // Every other path: Next.js's, or the not-found page in the reader's language.
  const servedByNext = config.dev ? null : nextServes(deps.pagesDir, path.resolve(import.meta.dirname, '../../public'));
  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    schema: { hide: true },
    handler: async (request, reply) => {
      const url = request.raw.url ?? '/';
      const query = url.indexOf('?');
      const pathname = query < 0 ? url : url.slice(0, query);
      if (servedByNext && !servedByNext(pathname))
        request.raw.url = `${NOT_FOUND_PAGE}${query < 0 ? '' : url.slice(query)}`;
      await render(request, reply);
    },
  });
}
