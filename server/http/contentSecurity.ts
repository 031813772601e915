/**
 * The Content-Security-Policy. Scripts: this origin, the page's own nonce (made per response
 * for pages rendered per request, `pageCsp`) and the hashes of the inline scripts in the pages
 * Next.js prerendered at build time (served as they are, so they cannot carry a nonce). Data goes
 * to this origin and the media origin only. styled-components' <style> tags need 'unsafe-inline'
 * for styles, which cannot run code.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { HelmetOptions } from 'helmet';
import { Worker } from 'node:worker_threads';

/** Stands for the nonce in the page template; replaced per response. */
const NONCE_SLOT = 'nonce-NONCE_SLOT';

export interface CspOptions {
  dev: boolean;
  /** `MEDIA_BASE_URL`: its origin is allowed for images and reads when it is absolute. */
  mediaBaseUrl: string;
  /** 'sha256-…' sources of the prerendered pages' inline scripts. */
  inlineScriptHashes: string[];
}

function mediaOrigins(mediaBaseUrl: string): string[] {
  try {
    return [new URL(mediaBaseUrl).origin];
  } catch {
    return []; // a path on this origin (`/media`)
  }
}

/** helmet's options; `nonce` adds the slot `pageCsp` fills. */
export function cspOptions(options: CspOptions, nonce: boolean): HelmetOptions['contentSecurityPolicy'] {
  const media = mediaOrigins(options.mediaBaseUrl);
  const scriptSrc = options.dev
    ? // Next's development runtime evaluates code and injects inline scripts of its own.
      ["'self'", "'unsafe-inline'", "'unsafe-eval'"]
    : ["'self'", ...(nonce ? [`'${NONCE_SLOT}'`] : []), ...options.inlineScriptHashes.map((h) => `'${h}'`)];
  return {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc,
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', ...media],
      connectSrc: ["'self'", ...media, ...(options.dev ? ['ws:'] : [])],
      upgradeInsecureRequests: null,
    },
  };
}

/** A fresh nonce, and the page's policy with it. */
export function pageCsp(template: string): { nonce: string; header: string } {
  const nonce = randomBytes(18).toString('base64');
  return { nonce, header: template.replace(NONCE_SLOT, `nonce-${nonce}`) };
}

// Inline classic scripts: no src, and not a data block such as __NEXT_DATA__ (type="application/json").
const INLINE_SCRIPT = /<script(\s[^>]*)?>([\s\S]*?)<\/script>/g;

/** The CSP hash sources of every inline script in the prerendered pages (`.next/server/pages/**.html`). */
export function inlineScriptHashes(pagesDir: string): string[] {
  const hashes = new Set<string>();
  let files: string[];
  try {
    files = readdirSync(pagesDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
  } catch {
    return []; // no build (tests, development)
  }
  for (const file of files) {
    const html = readFileSync(path.join(pagesDir, file), 'utf8');
    for (const [, attributes = '', body] of html.matchAll(INLINE_SCRIPT)) {
      if (/\bsrc\s*=/.test(attributes) || /\btype\s*=\s*"application\/json"/.test(attributes) || !body) continue;
      hashes.add(`sha256-${createHash('sha256').update(body).digest('base64')}`);
    }
  }
  return [...hashes].sort();
}

/**
 * React's own inline scripts, which Next's pages router renders without the nonce: a Suspense
 * boundary whose content is large is sent after the rest and revealed by a script (`$RC("B:0","S:0")`,
 * preceded once by React's runtime). Calls with string arguments only are harmless; the runtime is
 * the exact text React emits, learnt once by rendering two such boundaries with this React.
 */
const REACT_CALL = /\$R[A-Z]\((?:"(?:[^"\\<]|\\[^<])*"(?:,"(?:[^"\\<]|\\[^<])*")*)?\);?/g;

// Rendered in a worker thread: React loaded into the server's own module graph next to the one
// Next.js renders pages with breaks Next's rendering (two renderers, one dispatcher).
const LEARN_RUNTIME = `
const { parentPort, workerData } = require('node:worker_threads');
const load = require('node:module').createRequire(workerData.from);
const { createElement, Suspense, lazy } = load('react');
const { renderToReadableStream } = load('react-dom/server.edge');
const Big = lazy(async () => ({ default: () => createElement('div', null, 'x'.repeat(20000)) }));
const boundary = () => createElement(Suspense, { fallback: null }, createElement(Big));
(async () => {
  const stream = await renderToReadableStream(createElement('div', null, boundary(), boundary()), { nonce: 'learn' });
  await stream.allReady;
  parentPort.postMessage(await new Response(stream).text());
})();
`;

export async function reactRuntimeScripts(): Promise<Set<string>> {
  const worker = new Worker(LEARN_RUNTIME, { eval: true, workerData: { from: import.meta.url } });
  const html = await new Promise<string>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  const runtime = new Set<string>(['']);
  for (const [, body] of html.matchAll(/<script nonce="learn">([\s\S]*?)<\/script>/g))
    runtime.add(body.replace(REACT_CALL, ''));
  return runtime;
}

/** Puts the nonce on React's scripts (see above) and on no other script without one. */
export function nonceReactScripts(html: string, nonce: string, runtime: Set<string>): string {
  return html.replace(/<script>([\s\S]*?)<\/script>/g, (script, body: string) =>
    runtime.has(body.replace(REACT_CALL, '')) && body !== '' ? `<script nonce="${nonce}">${body}</script>` : script,
  );
}
