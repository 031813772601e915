/**
 * A page's HTML on its way out of Next.js. Next's pages router does not hand the CSP nonce to
 * React, so React's Suspense scripts get it here (`nonceReactScripts`); then the page is
 * compressed here, not by Next (`compress: false` in next.config.js), since compressed bytes
 * cannot be rewritten. Pages are not streamed (Next renders them whole), so holding one costs
 * nothing; other answers pass through untouched.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { nonceReactScripts } from './contentSecurity';
import { pickEncoding } from './staticFiles';

/** Smaller pages are sent as they are. */
const COMPRESS_FROM_BYTES = 1024;

function encode(html: string, acceptEncoding: string | undefined) {
  const raw = Buffer.from(html);
  if (raw.length < COMPRESS_FROM_BYTES) return { body: raw, encoding: null };
  // Brotli at quality 4: smaller than gzip and as fast, for a page made per request.
  const encoding = pickEncoding(acceptEncoding, { br: raw, gzip: raw });
  if (encoding === 'br')
    return { body: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }), encoding };
  if (encoding === 'gzip') return { body: gzipSync(raw, { level: 6 }), encoding };
  return { body: raw, encoding: null };
}

export function finishPage(req: IncomingMessage, res: ServerResponse, nonce: string, runtime: Set<string>): void {
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const isHtml = () => String(res.getHeader('content-type')).startsWith('text/html');
  const held: Buffer[] = [];
  const hold = (chunk: unknown) => {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) held.push(Buffer.from(chunk));
  };
  const callbackIn = (args: unknown[]) => args.find((a) => typeof a === 'function') as (() => void) | undefined;

  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!isHtml()) return write(chunk, ...rest);
    hold(chunk);
    callbackIn(rest)?.();
    return true;
  }) as ServerResponse['write'];

  res.end = ((first?: unknown, ...others: unknown[]) => {
    const [chunk, rest] = typeof first === 'function' ? [undefined, [first]] : [first, others];
    if (!isHtml() || (held.length === 0 && (chunk === undefined || chunk === null))) return end(chunk, ...rest);
    hold(chunk);
    // Done holding: an `end` that writes through `this.write` (light-my-request's) must not be held.
    res.write = write as ServerResponse['write'];
    const html = nonceReactScripts(Buffer.concat(held).toString('utf8'), nonce, runtime);
    if (res.headersSent) return end(html, callbackIn(rest));
    const { body, encoding } = encode(html, req.headers['accept-encoding']);
    res.setHeader('Vary', 'Accept-Encoding');
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    return end(body, callbackIn(rest));
  }) as ServerResponse['end'];
}
