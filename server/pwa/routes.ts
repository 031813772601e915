/**
 * The installed app's files (issue 74): the manifest, the service worker (built from this build's
 * manifest; none in development, where Next serves changing files), the offline shell it
 * precaches, and the share target's address for a browser without the worker yet.
 */
import type { FastifyPluginAsync } from 'fastify';
import { links } from '../../lib/pages';
import { MANIFEST_PATH, OFFLINE_PATH, SERVICE_WORKER_PATH, SHARE_TARGET_PATH } from '../../lib/pwa';
import { webAppManifest } from './manifest';
import { OFFLINE_CSP, offlineShellHtml } from './offlineShell';
import { builtServiceWorker } from './serviceWorker';

export const pwaRoutes: FastifyPluginAsync<{ instanceName: string; distDir: string | null }> = async (
  app,
  { instanceName, distDir },
) => {
  const manifest = JSON.stringify(webAppManifest(instanceName));
  const offline = offlineShellHtml(instanceName);
  const worker = distDir ? builtServiceWorker(distDir, instanceName) : null;

  // Asked again by the browser after a day at most: a renamed instance shows its new name.
  app.get(MANIFEST_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('application/manifest+json; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send(manifest),
  );

  app.get(OFFLINE_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('Content-Security-Policy', OFFLINE_CSP)
      .header('Cache-Control', 'no-cache')
      .send(offline),
  );

  if (worker)
    // Browsers check for a new worker at each visit: never a stale one from a cache.
    app.get(SERVICE_WORKER_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply.type('application/javascript; charset=utf-8').header('Cache-Control', 'no-cache').send(worker),
    );

  // Without the worker (shared before it installed), the image cannot be kept: the home page opens.
  // Answered before the body is read (nothing of it is kept); any origin may post it, as share sheets do.
  app.post(SHARE_TARGET_PATH, {
    schema: { hide: true },
    onRequest: async (_request, reply) => {
      await reply.redirect(links.home(), 303);
    },
    handler: async () => undefined,
  });
};
