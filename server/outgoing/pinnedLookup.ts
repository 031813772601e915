/**
 * Outgoing fetches connect to the address that was checked (issue 68, item 36): checking a host's
 * DNS answer and then letting `fetch` resolve it again let a server answer a public address to the
 * check and a loopback one to the connection (DNS rebinding). Here the name is resolved once, at
 * connect time, by the lookup the socket itself uses, and a private, loopback or link-local answer
 * refuses the connection there (Fedify's own rules for what is public). Used through an undici
 * `Agent` with undici's own `fetch` (the `dispatcher` of Node's built-in fetch must come from the
 * undici bundled in Node, which is not importable).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { UrlError, isValidPublicIPv4Address, isValidPublicIPv6Address } from '@fedify/vocab-runtime';
import { Agent, fetch as undiciFetch } from 'undici';

/** Every address a name resolves to (`dns.lookup` with `all`); a test hands in its own. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true });

/** Whether `address` (an IP literal) is one this server may connect to for federation. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isValidPublicIPv4Address(address);
  if (family === 6) return isValidPublicIPv6Address(address);
  return false;
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net.connect`: `resolve`s the name once and hands the socket only public
 * addresses; any other answer fails the connection with a `UrlError` (nothing is sent).
 */
export function publicOnlyLookup(resolve: Resolver, allowPrivateAddress: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (found) => {
        const addresses = found.filter(({ address }) => isIP(address) !== 0);
        const refused = addresses.find(({ address }) => !isPublicAddress(address));
        if (addresses.length === 0) return callback(new UrlError(`DNS lookup of ${hostname} returned no address`), '');
        // Every answer must be public: the socket may try any of them (happy eyeballs).
        if (refused && !allowPrivateAddress)
          return callback(new UrlError(`Invalid or private address: ${refused.address}`), '');
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (error: unknown) => callback(new UrlError(`DNS lookup of ${hostname} failed`, { cause: error }), ''),
    );
  };
}

/** A GET through `pinnedFetch`: the URL and the request's parts (its own `Request` class is undici's). */
export type GuardedFetch = (url: string, init: GuardedInit) => Promise<Response>;
export interface GuardedInit {
  method?: string;
  headers?: Headers | Record<string, string>;
  /** A push's encrypted record (`push/deliveries.ts`). */
  body?: Uint8Array;
  redirect: 'manual';
  signal: AbortSignal;
}

/** An undici fetch whose connections go only where `publicOnlyLookup` lets them. */
export function pinnedFetch(allowPrivateAddress: boolean, resolve: Resolver = systemResolver): GuardedFetch {
  const agent = new Agent({ connect: { lookup: publicOnlyLookup(resolve, allowPrivateAddress) } });
  return async (url, { headers, ...init }) => {
    try {
      return (await undiciFetch(url, {
        ...init,
        // Node's Headers are not undici's class: handed over as pairs.
        headers: headers instanceof Headers ? [...headers] : headers,
        dispatcher: agent,
      })) as unknown as Response;
    } catch (error) {
      // fetch wraps every connection failure in `TypeError: fetch failed`: a refused address is
      // thrown as the `UrlError` it is, as the check before the connection used to throw it.
      if (error instanceof TypeError && error.cause instanceof UrlError) throw error.cause;
      throw error;
    }
  };
}
