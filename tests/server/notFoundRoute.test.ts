/**
 * A path no page serves is answered by the not-found page rendered in the reader's language
 * (server/pages/nextRoutes.ts, issue 75); a page, a public file and Next.js's own paths go to
 * Next.js as they came.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NOT_FOUND_PAGE, nextServes } from '../../server/pages/nextRoutes';
import { type TestApp, createTestApp } from './helpers';

// Stands in for Next.js: says which address it was asked to render.
async function pageHandler(req: IncomingMessage, res: ServerResponse) {
  res.setHeader('content-type', 'text/plain');
  res.end(req.url);
}

let build: string;
let t: TestApp;
beforeAll(async () => {
  build = mkdtempSync(path.join(tmpdir(), 'posts-build-'));
  mkdirSync(path.join(build, 'server', 'pages'), { recursive: true });
  const manifest = Object.fromEntries(
    ['/_app', '/_document', '/_error', '/', '/404', '/login', '/notFound', '/post/[id]', '/docs/[...slug]'].map(
      (route) => [route, `pages${route}.js`],
    ),
  );
  writeFileSync(path.join(build, 'server', 'pages-manifest.json'), JSON.stringify(manifest));
  t = await createTestApp({}, { pageHandler, pagesDir: path.join(build, 'server', 'pages') });
});
afterAll(async () => {
  await t.close();
  rmSync(build, { recursive: true, force: true });
});

describe('the pages Next.js serves (nextServes)', () => {
  it("knows the build's pages, dynamic ones by their pattern, public files and Next.js's own paths", () => {
    const publicDir = path.join(build, 'public');
    mkdirSync(path.join(publicDir, 'icons'), { recursive: true });
    writeFileSync(path.join(publicDir, 'favicon.svg'), '<svg/>');
    writeFileSync(path.join(publicDir, 'icons', 'icon-192.png'), '');
    const serves = nextServes(path.join(build, 'server', 'pages'), publicDir);
    expect(serves).not.toBeNull();
    for (const known of [
      '/',
      '/login',
      '/login/',
      '/post/abc',
      '/docs/a/b',
      '/favicon.svg',
      '/icons/icon-192.png',
      '/_next/data/x/login.json',
    ])
      expect(serves!(known), known).toBe(true);
    for (const unknown of [
      '/no-such-page',
      '/post',
      '/post/abc/more',
      '/docs',
      '/_app',
      '/_error',
      '/icons',
      '/login.js',
    ])
      expect(serves!(unknown), unknown).toBe(false);
  });

  it('is null without a build: Next.js answers everything then', () => {
    expect(nextServes(path.join(build, 'none', 'pages'), path.join(build, 'public'))).toBeNull();
  });
});

describe('an unknown path', () => {
  it('is rendered as the not-found page, its query kept; a known page as it came', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/no-such-page?x=1' })).body).toBe(`${NOT_FOUND_PAGE}?x=1`);
    expect((await t.app.inject({ method: 'GET', url: '/login?next=%2Fhome' })).body).toBe('/login?next=%2Fhome');
    expect((await t.app.inject({ method: 'GET', url: '/docs/a' })).body).toBe('/docs/a');
  });
});
