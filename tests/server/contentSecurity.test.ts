/** The CSP: no 'unsafe-inline' scripts (a nonce per page response, hashes for prerendered pages), data only to this origin and the media origin. */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { CSP_NONCE_HEADER } from '../../lib/csp';
import { Suspense, createElement, lazy } from 'react';
import { renderToReadableStream } from 'react-dom/server';
import { inlineScriptHashes, nonceReactScripts, reactRuntimeScripts } from '../../server/http/contentSecurity';
import { type TestApp, createTestApp } from './helpers';

/** The CSP header's directives by name. */
const directives = (header: unknown) =>
  Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );

// Stands in for Next.js: answers with the nonce the document would put on its scripts.
async function pageHandler(req: IncomingMessage, res: ServerResponse) {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  // Next's way: the length first, then the whole page at once. React's reveal call has no nonce.
  const html = `<script nonce="${req.headers[CSP_NONCE_HEADER]}">1</script><p>${'text '.repeat(400)}</p><script>$RC("B:0","S:0")</script><script>alert(1)</script>`;
  res.setHeader('Content-Length', Buffer.byteLength(html));
  res.end(html);
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

let t: TestApp;
let pagesDir: string;
beforeAll(async () => {
  pagesDir = mkdtempSync(path.join(tmpdir(), 'posts-pages-'));
  mkdirSync(path.join(pagesDir, 'nested'));
  writeFileSync(
    path.join(pagesDir, 'index.html'),
    '<script>theme()</script><script id="__NEXT_DATA__" type="application/json">{"a":1}</script><script src="/x.js" defer=""></script>',
  );
  writeFileSync(path.join(pagesDir, 'nested', '404.html'), '<script>\nreads()\n</script><script>theme()</script>');
  t = await createTestApp({ MEDIA_BASE_URL: 'https://cdn.example/media' }, { pageHandler, pagesDir });
});
afterAll(async () => {
  await t.close();
  rmSync(pagesDir, { recursive: true, force: true });
});

describe('Content-Security-Policy', () => {
  it('hashes the inline scripts of the prerendered pages, not data blocks or external scripts', () => {
    expect(inlineScriptHashes(pagesDir).map((h) => `'${h}'`)).toEqual(
      [sha256('theme()'), sha256('\nreads()\n')].sort(),
    );
    expect(inlineScriptHashes(path.join(pagesDir, 'none'))).toEqual([]);
  });

  it('gives each page response its own nonce, which reaches the page, and allows no other inline script', async () => {
    const pages = await Promise.all(
      [1, 2].map(() => t.app.inject({ method: 'GET', url: '/', headers: { [CSP_NONCE_HEADER]: 'chosen-by-client' } })),
    );
    const nonces = pages.map((page) => {
      const scripts = directives(page.headers['content-security-policy'])['script-src'];
      const nonce = /nonce="([^"]+)"/.exec(page.body)![1];
      expect(nonce).not.toBe('chosen-by-client');
      expect(scripts).toEqual(["'self'", `'nonce-${nonce}'`, ...[sha256('theme()'), sha256('\nreads()\n')].sort()]);
      return nonce;
    });
    expect(nonces[0]).not.toBe(nonces[1]);
    expect(nonces[0]).toMatch(/^[A-Za-z0-9+/]{24}$/);
  });

  it("gives React's scripts in a page the nonce, then compresses the page", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers.vary).toBe('Accept-Encoding');
    const html = gunzipSync(page.rawPayload).toString();
    expect(Number(page.headers['content-length'])).toBe(page.rawPayload.length);
    const nonce = /'nonce-([^']+)'/.exec(String(page.headers['content-security-policy']))![1];
    expect(html).toContain(`<script nonce="${nonce}">$RC("B:0","S:0")</script>`);
    expect(html).toContain('<script>alert(1)</script>');
    const plain = await t.app.inject({ method: 'GET', url: '/' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(plain.body));
  });

  it('sends reads and images only to this origin and the media origin', async () => {
    for (const url of ['/', '/media/none.webp']) {
      const csp = directives((await t.app.inject({ method: 'GET', url })).headers['content-security-policy']);
      expect(csp['script-src']).not.toContain("'unsafe-inline'");
      expect(csp['connect-src']).toEqual(["'self'", 'https://cdn.example']);
      expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://cdn.example']);
      expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp['default-src']).toEqual(["'self'"]);
    }
  });

  it('lets nothing in an API answer run, load or be framed, and no other site embed it', async () => {
    for (const url of ['/api/instance', '/api/posts', '/api/v1/instance', '/api/nothing-here']) {
      const { headers } = await t.app.inject({ method: 'GET', url });
      expect(directives(headers['content-security-policy'])).toEqual({
        'default-src': ["'none'"],
        'frame-ancestors': ["'none'"],
      });
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(headers['referrer-policy']).toBe('no-referrer');
      // A document's headers only: not written on every answer.
      expect(headers['x-dns-prefetch-control']).toBeUndefined();
      expect(headers['cross-origin-opener-policy']).toBeUndefined();
    }
  });

  it('tells browsers to come back over HTTPS on pages and API answers alike, when the site is HTTPS', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/instance' })).headers['strict-transport-security']).toBe(
      undefined,
    );
    const secure = await createTestApp({ COOKIE_SECURE: 'true' });
    try {
      for (const url of ['/', '/api/instance'])
        expect((await secure.app.inject({ method: 'GET', url })).headers['strict-transport-security']).toMatch(
          /^max-age=\d+/,
        );
    } finally {
      await secure.close();
    }
  });
});

describe("React's Suspense scripts", () => {
  it('get the nonce, and no other script without one does', async () => {
    // A page as Next's pages router renders it: a large boundary outlined, revealed by scripts without a nonce.
    const Big = lazy(async () => ({ default: () => createElement('p', null, 'y'.repeat(30_000)) }));
    const stream = await renderToReadableStream(
      createElement(
        'main',
        null,
        ...[1, 2, 3].map((k) => createElement(Suspense, { key: k, fallback: null }, createElement(Big))),
      ),
    );
    await stream.allReady;
    const page = await new Response(stream).text();
    const runtime = await reactRuntimeScripts();
    const reactScripts = page.match(/<script>/g)?.length ?? 0;
    expect(reactScripts).toBeGreaterThanOrEqual(3);

    const injected = [
      '<script>alert(1)</script>',
      '<script>$RC("B:0","S:0");alert(1)</script>',
      '<script>$RC(alert(1))</script>',
    ];
    const html = nonceReactScripts(page + injected.join(''), 'abc', runtime);
    expect(html.match(/<script nonce="abc">/g)).toHaveLength(reactScripts);
    for (const script of injected) expect(html).toContain(script);
  });
});
