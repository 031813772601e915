/**
 * Which hosts this server answers for (DNS rebinding: a page on another name that resolves to this
 * machine must not drive it), and the refusal of unsafe requests sent by another site (CSRF
 * defence on top of SameSite=Lax cookies).
 */
import { networkInterfaces } from 'node:os';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface HostRules {
  /** `PUBLIC_URL`'s origin (`https://posts.example`), or null when it is not set. */
  publicOrigin: string | null;
  /** The listening address (`HOST`). */
  listenHost: string;
}

/** `localhost:80` and `localhost` are the same host for http. */
function normalizeHost(host: string, protocol: string): string {
  try {
    return new URL(`${protocol}//${host}`).host;
  } catch {
    return host;
  }
}

/** The name part of a Host header, without port or IPv6 brackets. */
function hostnameOf(host: string): string {
  try {
    return new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return '';
  }
}

/**
 * Loopback names: only a program on this machine (or one that sets Host itself, which a browser
 * page cannot) sends them, so they are safe to accept and keep `curl localhost` and health checks working.
 */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/** Allowed Host headers remembered (any name under `.localhost` is loopback: the set is capped). */
const MAX_HOSTS_KEPT = 64;

const interfaceAddresses = () =>
  new Set(
    Object.values(networkInterfaces())
      .flat()
      .map((i) => i?.address ?? ''),
  );

/**
 * The Host check (throws the 421), for the request hook. With `PUBLIC_URL`: its host (and loopback) only.
 * Without: loopback and the listening address; listening on every interface, any of the
 * machine's own addresses (looked up again when one is not known, for addresses that change).
 */
export function refuseOtherHosts(rules: HostRules) {
  const publicHost = rules.publicOrigin ? new URL(rules.publicOrigin).host : null;
  const publicProtocol = rules.publicOrigin ? new URL(rules.publicOrigin).protocol : 'http:';
  const listenAll = WILDCARDS.has(rules.listenHost);
  let addresses = listenAll ? interfaceAddresses() : new Set([hostnameOf(rules.listenHost) || rules.listenHost]);

  // Host headers the fixed rules (loopback, PUBLIC_URL's host) allowed: nearly every request sends
  // one of a few, and parsing each as a URL was a real share of a cached read (docs/benchmarks.md,
  // "Per-request costs"). The machine's addresses can change, so what they allowed is looked at each time.
  const fixedAllowed = new Set<string>();
  function allowed(host: string): boolean {
    if (fixedAllowed.has(host)) return true;
    const hostname = hostnameOf(host);
    if (isLoopback(hostname) || (publicHost !== null && normalizeHost(host, publicProtocol) === publicHost)) {
      if (fixedAllowed.size < MAX_HOSTS_KEPT) fixedAllowed.add(host);
      return true;
    }
    if (publicHost) return false;
    if (addresses.has(hostname)) return true;
    if (!listenAll) return false;
    addresses = interfaceAddresses();
    return addresses.has(hostname);
  }

  const refusal = () =>
    new HttpError(
      421,
      'MisdirectedRequest',
      publicHost ? `This server answers for ${publicHost} only` : 'This server does not answer for that host name',
    );
  return function checkHost(request: Pick<FastifyRequest, 'host'>, _reply?: FastifyReply): void {
    // Behind a trusted proxy Fastify reports the forwarded host here. No Host at all (HTTP/1.0) is
    // no rebinding: a browser always sends the name it resolved.
    const host = request.host;
    if (host && !allowed(host)) throw refusal();
  };
}

/**
 * Unsafe methods must come from this site: `Sec-Fetch-Site`, then `Origin`, which must be
 * `PUBLIC_URL`'s origin (scheme included) when it is set (or the request's own loopback host),
 * else the request's own host.
 *
 * `Origin: null` is refused, except on `formTokenPaths`: forms whose route checks a CSRF token tied
 * to the session (the OAuth consent form, whose page's `Referrer-Policy: no-referrer` makes browsers
 * send `null`). `Sec-Fetch-Site` and any other origin are checked there as everywhere.
 */
export function refuseCrossOrigin(
  rules: Pick<HostRules, 'publicOrigin'>,
  formTokenPaths: ReadonlySet<string> = new Set(),
) {
  return function checkOrigin(request: FastifyRequest, _reply?: FastifyReply): void {
    if (SAFE_METHODS.has(request.method)) return;
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') throw crossOrigin();
    const origin = request.headers.origin;
    if (origin === undefined) return; // curl and other non-browser clients send neither header
    if (origin === 'null' && formTokenPaths.has(request.url.split('?', 1)[0])) return;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw crossOrigin();
    }
    const host = request.host;
    if (rules.publicOrigin && url.origin === rules.publicOrigin) return;
    if (rules.publicOrigin && !(host && isLoopback(hostnameOf(host)))) throw crossOrigin();
    if (!host || url.host !== normalizeHost(host, url.protocol)) throw crossOrigin();
  };
}

const crossOrigin = () => new HttpError(403, 'CrossOrigin', 'Cross-origin requests are not allowed');
