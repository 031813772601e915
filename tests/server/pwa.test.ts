/**
 * The installed app's server side (issue 74): the manifest, the icons it names, the service
 * worker's script built from a build's manifest, the offline shell and its policy, and the share
 * target's fallback for a browser without the worker.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import sharp from 'sharp';
import { NOTIFICATION_ICON_PATH } from '../../lib/pwa';
import { ICONS } from '../../server/pwa/icons';
import { webAppManifest } from '../../server/pwa/manifest';
import { OFFERED_LANGUAGES } from '../../lib/i18n/languages';
import { OFFLINE_CSP, offlineShellHtml, offlineTexts } from '../../server/pwa/offlineShell';
import { pwaRoutes } from '../../server/pwa/routes';
import { SIGN_OUT_REQUESTS, precacheList } from '../../server/pwa/serviceWorker';
import { createTestApp } from './helpers';

const PUBLIC = path.resolve(import.meta.dirname, '../../public');

const BUILD_MANIFEST = {
  polyfillFiles: ['static/chunks/polyfills.js'],
  lowPriorityFiles: ['static/abc/_buildManifest.js'],
  pages: {
    '/_app': ['static/chunks/framework.js', 'static/chunks/main.js', 'static/chunks/pages/_app.js'],
    '/home': ['static/chunks/framework.js', 'static/chunks/pages/home.js', 'static/css/home.css'],
  },
};

async function appWith(distDir: string | null) {
  const app = Fastify();
  await app.register(pwaRoutes, { instanceName: 'Posts on the Hill', distDir });
  return app;
}

describe('the web app manifest', () => {
  const manifest = webAppManifest('Posts on the Hill');

  it('opens the home feed as a standalone app in the default theme, named after the instance', () => {
    expect(manifest).toMatchObject({
      name: 'Posts on the Hill',
      short_name: 'Posts on the',
      start_url: '/home',
      scope: '/',
      display: 'standalone',
      background_color: '#1c1c21',
      theme_color: '#1c1c21',
    });
  });

  it('names "any" and maskable icons at 192 and 512 px, each a PNG of its size', async () => {
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '192x192 maskable',
      '512x512 maskable',
    ]);
    for (const icon of ICONS) {
      const meta = await sharp(path.join(PUBLIC, icon.src)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', icon.size, icon.size]);
    }
    // A push from someone without an avatar shows one of them (server/push/payload.ts).
    expect(ICONS.map((icon) => icon.src)).toContain(NOTIFICATION_ICON_PATH);
  });

  it('takes one shared JPEG or PNG image by POST', () => {
    expect(manifest.share_target).toEqual({
      action: '/share',
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { files: [{ name: 'image', accept: ['image/jpeg', 'image/png', '.jpg', '.jpeg', '.png'] }] },
    });
  });
});

describe('the service worker', () => {
  it('precaches the shared first load, the polyfills and every stylesheet, nothing else', () => {
    expect(precacheList(BUILD_MANIFEST).sort()).toEqual(
      [
        '/_next/static/chunks/polyfills.js',
        '/_next/static/chunks/framework.js',
        '/_next/static/chunks/main.js',
        '/_next/static/chunks/pages/_app.js',
        '/_next/static/css/home.css',
      ].sort(),
    );
  });

  it('is served for a build, never cached stale, and changes with the build', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'posts-pwa-'));
    try {
      writeFileSync(path.join(dist, 'build-manifest.json'), JSON.stringify(BUILD_MANIFEST));
      writeFileSync(path.join(dist, 'BUILD_ID'), 'build-1\n');
      const first = await (await appWith(dist)).inject({ url: '/sw.js' });
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(first.headers['cache-control']).toBe('no-cache');
      const config = JSON.parse(/^const CONFIG = (.*);$/m.exec(first.body)![1]) as Record<string, unknown>;
      expect(config).toMatchObject({
        offline: '/offline',
        precache: precacheList(BUILD_MANIFEST),
        shareTarget: '/share',
        shareCache: 'posts-shared',
        signOut: SIGN_OUT_REQUESTS,
        sessions: '/api/auth/sessions',
        refresh: '/api/auth/refresh',
        pushSubscription: '/api/push/subscription',
        icons: ['/icons/icon-192.png', '/icons/icon-512.png', '/icons/maskable-192.png', '/icons/maskable-512.png'],
      });
      writeFileSync(path.join(dist, 'BUILD_ID'), 'build-2\n');
      const second = await (await appWith(dist)).inject({ url: '/sw.js' });
      expect(second.body).not.toBe(first.body);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('is not served without a production build (development)', async () => {
    expect((await (await appWith(null)).inject({ url: '/sw.js' })).statusCode).toBe(404);
  });
});

describe('the offline shell', () => {
  it('says the person is offline, with a policy allowing exactly its own script and style', async () => {
    const response = await (await appWith(null)).inject({ url: '/offline' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toBe(OFFLINE_CSP);
    const html = offlineShellHtml('Posts on the Hill');
    expect(response.body).toBe(html);
    expect(html).toContain('<h1>You are offline</h1>');
    const script = /<script>(.*?)<\/script>/.exec(html)![1];
    const style = /<style>(.*?)<\/style>/s.exec(html)![1];
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(OFFLINE_CSP).toContain(`script-src ${hash(script)};`);
    expect(OFFLINE_CSP).toContain(`style-src ${hash(style)};`);
  });

  it('escapes the instance name', () => {
    expect(offlineShellHtml('<b>Posts</b>')).not.toContain('<b>');
  });

  it("holds its texts in every language offered, for its script to choose the person's", () => {
    const html = offlineShellHtml('Posts </script> Hill');
    const texts = JSON.parse(/<script type="application\/json" id="texts">(.*?)<\/script>/.exec(html)![1]);
    expect(Object.keys(texts)).toEqual([...OFFERED_LANGUAGES]);
    expect(texts.es).toEqual(offlineTexts('es', 'Posts </script> Hill'));
    expect(texts.es.title).toBe('Estás sin conexión');
    expect(texts.ar).toMatchObject({ dir: 'rtl', tryAgain: 'حاول مرة أخرى' });
    expect(texts.ja.lead).toContain('Posts </script> Hill');
  });
});

describe('the share target without the worker', () => {
  it('sends the person home without reading the upload', async () => {
    const response = await (
      await appWith(null)
    ).inject({
      method: 'POST',
      url: '/share',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nnot read\r\n--x--\r\n',
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/home');
  });
});

describe('the installed app in the whole server', () => {
  it('serves the manifest with the pages, and lets a share sheet post /share with `Origin: null`', async () => {
    const t = await createTestApp({}, { pageHandler: async (_req, res) => void res.end('page') });
    try {
      const manifest = await t.app.inject({ url: '/manifest.webmanifest' });
      expect(manifest.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
      expect(manifest.json()).toMatchObject({ start_url: '/home' });
      const share = (origin: string) =>
        t.app.inject({ method: 'POST', url: '/share', headers: { origin, 'content-type': 'text/plain' }, payload: '' });
      expect((await share('null')).statusCode).toBe(303);
      // Another site's page is still refused, as for every other form.
      expect((await share('https://elsewhere.example')).statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });
});
