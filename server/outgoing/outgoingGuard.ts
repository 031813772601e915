/**
 * What this instance fetches from and delivers to other servers (issue 32, item 6): never a
 * private, loopback or link-local address (a remote actor could otherwise point us at our own
 * network) unless `FEDERATION_ALLOW_PRIVATE=true`, never a suspended domain, each fetch bounded in
 * time and in size. Fedify's own loaders have the address check but no timeout nor size cap, so
 * this module's loaders replace them (`documentLoaderFactory` and friends, on loopback trials
 * too, without the address check), and deliveries are checked as the queue hands them out.
 */
import { type KvStore, type MessageQueue, kvCache, signRequest } from '@fedify/fedify';
import {
  type DocumentLoader,
  type DocumentLoaderOptions,
  FetchError,
  type RemoteDocument,
  UrlError,
  createActivityPubRequest,
  getRemoteDocument,
  preloadedContexts,
  validatePublicUrl,
} from '@fedify/vocab-runtime';
import { isIP } from 'node:net';
import type { DomainSeverity } from '../../lib/types';
import { jsonLdProblem } from './jsonLdBounds';
import { type GuardedFetch, type Resolver, isPublicAddress, pinnedFetch } from './pinnedLookup';

/** How long one fetch of a remote document may take, answer included. */
export const FETCH_TIMEOUT_MS = 10_000;
/** The largest remote document read (an actor, a note, a collection page); larger ones fail. */
export const FETCH_MAX_BYTES = 1024 * 1024;
/** How long one delivery may hold a queue worker before it counts as failed (tried again later). */
export const DELIVERY_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;

export interface FetchLimits {
  allowPrivateAddress: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  userAgent?: string;
  /** How host names are resolved (at connect time, once: `pinnedLookup.ts`); tests hand in a stub. */
  resolve?: Resolver;
}

/** Throws `UrlError` for a non-HTTP URL or one whose host is (or resolves to) a private address. */
export async function checkPublicUrl(url: string | URL, allowPrivateAddress: boolean): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UrlError(`Unsupported protocol: ${parsed.protocol}`);
  if (!allowPrivateAddress) await validatePublicUrl(parsed.href);
}

/**
 * The URL's own refusals, before any connection: not http(s), a private IP literal, `localhost`. A
 * host name is resolved once, as the connection is made, and refused there when its answer is
 * not public (`pinnedLookup.ts`): no second lookup can answer differently.
 */
export function checkUrlShape(url: string | URL, allowPrivateAddress: boolean): void {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UrlError(`Unsupported protocol: ${parsed.protocol}`);
  if (allowPrivateAddress) return;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host.endsWith('.localhost')) throw new UrlError('Localhost is not allowed');
  if (isIP(host) !== 0 && !isPublicAddress(host)) throw new UrlError(`Invalid or private address: ${host}`);
}

/** The fetch of `limits`: one per pair of settings, so connections are pooled across calls. */
const fetches = new Map<string, GuardedFetch>();
function fetchFor(limits: FetchLimits): GuardedFetch {
  if (limits.resolve) return pinnedFetch(limits.allowPrivateAddress, limits.resolve);
  const key = String(limits.allowPrivateAddress);
  let made = fetches.get(key);
  if (!made) fetches.set(key, (made = pinnedFetch(limits.allowPrivateAddress)));
  return made;
}

/** The body, read up to `maxBytes` (a `FetchError` past it: the rest is not read). */
async function readCapped(response: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new FetchError(url, `The document is larger than ${maxBytes} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new FetchError(url, `The document is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * A plain GET outside Fedify's loaders (WebFinger by handle, images): the same address check on
 * every hop, a timeout and a size cap. The status and the body, read up to `maxBytes`.
 */
export async function guardedFetch(
  url: string,
  limits: FetchLimits & { accept: string },
): Promise<{ status: number; body: Uint8Array }> {
  const { allowPrivateAddress, timeoutMs = FETCH_TIMEOUT_MS, maxBytes = FETCH_MAX_BYTES } = limits;
  const signal = AbortSignal.timeout(timeoutMs);
  const fetch = fetchFor(limits);
  let href = new URL(url).href;
  for (let hops = 0; ; hops++) {
    checkUrlShape(href, allowPrivateAddress);
    const headers: Record<string, string> = { accept: limits.accept };
    if (limits.userAgent) headers['user-agent'] = limits.userAgent;
    const response = await fetch(href, { headers, redirect: 'manual', signal });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (hops >= MAX_REDIRECTS) throw new FetchError(href, `Too many redirections (${hops + 1})`);
      href = new URL(location, href).href;
      continue;
    }
    return { status: response.status, body: await readCapped(response, maxBytes, href) };
  }
}

/**
 * A JSON-LD document loader with the address check on every hop (redirects included), a timeout,
 * a size cap and the JSON-LD bounds (`jsonLdBounds.ts`); `sign` signs each request (the authenticated loader, for servers that ask).
 */
export function guardedDocumentLoader(
  limits: FetchLimits,
  sign?: (request: Request) => Promise<Request>,
): DocumentLoader {
  const { allowPrivateAddress, timeoutMs = FETCH_TIMEOUT_MS, maxBytes = FETCH_MAX_BYTES, userAgent } = limits;
  const fetch = fetchFor(limits);
  async function load(url: string, options: DocumentLoaderOptions | undefined, hops: number): Promise<RemoteDocument> {
    options?.signal?.throwIfAborted();
    const href = new URL(url).href;
    if (href in preloadedContexts) return { contextUrl: null, document: preloadedContexts[href], documentUrl: href };
    checkUrlShape(href, allowPrivateAddress);
    let request = createActivityPubRequest(href, { userAgent });
    if (sign) request = await sign(request);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options?.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      redirect: 'manual',
      signal,
    });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (hops >= MAX_REDIRECTS) throw new FetchError(href, `Too many redirections (${hops + 1})`);
      return load(new URL(location, href).href, options, hops + 1);
    }
    const body = await readCapped(response, maxBytes, href);
    const capped = new Response(response.status === 204 || response.status === 304 ? null : new Uint8Array(body), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    const remote = await getRemoteDocument(href, capped, (next, nextOptions) =>
      load(next, nextOptions ?? options, hops + 1),
    );
    // An actor named by an unsigned request's keyId, or a context it names, is read as JSON-LD:
    // bounded as inbox bodies are (issue 68, item 33).
    const problem = jsonLdProblem(remote.document);
    if (problem) throw new FetchError(href, `The document is refused: ${problem}`);
    return remote;
  }
  return (url, options) => load(url, options, 0);
}

/**
 * The loader factories Fedify is given: the guarded loader, cached in Fedify's store as its own
 * loaders are. Fedify asks for them on every request's context: each is made once (a `kvCache`
 * builds its URL patterns and durations as it is made; Fedify's own factories make two per
 * request). `allowPrivateAddress` (trials on loopback, the benches) only drops the address check.
 */
export function guardedLoaderFactories(kv: KvStore, limits: FetchLimits) {
  const plain = (kind: 'object' | 'context') => {
    const loader = kvCache({ loader: guardedDocumentLoader(limits), kv, kind });
    return () => loader;
  };
  return {
    documentLoaderFactory: plain('object'),
    contextLoaderFactory: plain('context'),
    authenticatedDocumentLoaderFactory: (identity: { keyId: URL; privateKey: CryptoKey }) =>
      guardedDocumentLoader(limits, (request) => signRequest(request, identity.privateKey, identity.keyId)),
  };
}

export interface DeliveryGuard {
  allowPrivateAddress: boolean;
  severityOf(host: string): Promise<DomainSeverity | null>;
  /** A delivery not made (a suspended domain, a private address): said once, not retried. */
  onRefused?: (inbox: string, why: string) => void;
  timeoutMs?: number;
}

/** Why a delivery to this inbox is not made, or null when it may go. */
export async function refusedInbox(inbox: string, guard: DeliveryGuard): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(inbox);
    await checkPublicUrl(url, guard.allowPrivateAddress);
  } catch (error) {
    return error instanceof Error ? error.message : 'not a public address';
  }
  return (await guard.severityOf(url.host)) === 'suspend' ? `${url.host} is suspended` : null;
}

/**
 * The queue with deliveries checked as a worker takes them: Fedify queues each delivery as an
 * `outbox` message naming one inbox, whatever sent it (a post, an Accept), so this one place sees
 * every one. A delivery that hangs past `timeoutMs` frees its worker and counts as failed.
 */
export function guardDeliveries<Q extends MessageQueue>(queue: Q, guard: DeliveryGuard): Q {
  const timeoutMs = guard.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  return {
    ...queue,
    listen(handler, options) {
      return queue.listen(async (message) => {
        const outbox = message as { type?: unknown; inbox?: unknown };
        if (outbox.type !== 'outbox' || typeof outbox.inbox !== 'string') return handler(message);
        const refused = await refusedInbox(outbox.inbox, guard);
        if (refused) return guard.onRefused?.(outbox.inbox, refused);
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`delivery to ${String(outbox.inbox)} took too long`)), timeoutMs);
        });
        try {
          await Promise.race([handler(message), timedOut]);
        } finally {
          clearTimeout(timer);
        }
      }, options);
    },
  };
}
