/**
 * A subscription's parts checked as they arrive, alike from the web app and the client API: the
 * endpoint is where this server will POST, so it gets the outgoing fetches' rules (https, no
 * private or loopback address, unless the instance allows them for trials); the keys must be what
 * RFC 8291 encrypts to (a P-256 point, a 16-byte secret).
 */
import { UrlError } from '@fedify/vocab-runtime';
import { InvalidError } from '../domain/errors';
import { checkUrlShape } from '../outgoing/outgoingGuard';
import type { PushPolicy } from '../db/schema';
import { PUSH_KINDS, type PushAlerts } from './kinds';

export const ENDPOINT_MAX_LENGTH = 2000;
const POLICIES: readonly PushPolicy[] = ['all', 'followed', 'follower', 'none'];

export interface SubscriptionKeys {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export function checkEndpoint(raw: unknown, allowPrivateAddress: boolean): string {
  if (typeof raw !== 'string' || raw === '') throw new InvalidError('The subscription needs an endpoint (a URL)');
  if (raw.length > ENDPOINT_MAX_LENGTH)
    throw new InvalidError(`The subscription's endpoint must be at most ${ENDPOINT_MAX_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidError("The subscription's endpoint must be a URL");
  }
  if (url.protocol !== 'https:' && !(allowPrivateAddress && url.protocol === 'http:'))
    throw new InvalidError("The subscription's endpoint must be an https:// URL");
  if (url.username || url.password) throw new InvalidError("The subscription's endpoint must not carry a password");
  try {
    checkUrlShape(url, allowPrivateAddress);
  } catch (error) {
    if (error instanceof UrlError)
      throw new InvalidError("The subscription's endpoint must be a public address, not a local or private one");
    throw error;
  }
  return url.href;
}

/** Base64 or base64url (browsers give the latter, some apps the former), as base64url. */
function keyBytes(name: string, raw: unknown, check: (bytes: Buffer) => boolean, what: string): string {
  if (typeof raw !== 'string' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw) || raw.length > 200)
    throw new InvalidError(`The subscription's keys.${name} must be ${what} in base64url`);
  const bytes = Buffer.from(raw.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''), 'base64url');
  if (!check(bytes)) throw new InvalidError(`The subscription's keys.${name} must be ${what} in base64url`);
  return bytes.toString('base64url');
}

export function checkKeys(keys: unknown): { p256dh: string; auth: string } {
  if (!keys || typeof keys !== 'object') throw new InvalidError('The subscription needs keys (p256dh and auth)');
  const { p256dh, auth } = keys as Record<string, unknown>;
  return {
    p256dh: keyBytes(
      'p256dh',
      p256dh,
      (b) => b.length === 65 && b[0] === 4,
      'an uncompressed P-256 public key (65 bytes)',
    ),
    auth: keyBytes('auth', auth, (b) => b.length === 16, 'a 16-byte secret'),
  };
}

export function checkPolicy(raw: unknown): PushPolicy {
  if (typeof raw === 'string' && (POLICIES as readonly string[]).includes(raw)) return raw as PushPolicy;
  throw new InvalidError(`policy must be one of ${POLICIES.join(', ')}`);
}

/** A true or false as JSON or a form sends it. */
export function flagOf(name: string, raw: unknown): boolean {
  if (raw === true || raw === 'true' || raw === '1' || raw === 1) return true;
  if (raw === false || raw === 'false' || raw === '0' || raw === 0 || raw === '') return false;
  throw new InvalidError(`${name} must be true or false`);
}

/** The web app's `alerts`: each of Posts' kinds true or false; one left out keeps `base`'s. */
export function checkAlerts(raw: unknown, base: PushAlerts): PushAlerts {
  if (raw === undefined) return base;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new InvalidError(`alerts must be an object of ${PUSH_KINDS.join(', ')}: true or false`);
  const given = raw as Record<string, unknown>;
  for (const name of Object.keys(given))
    if (!(PUSH_KINDS as readonly string[]).includes(name))
      throw new InvalidError(`alerts.${name} is not a kind of notification; the kinds are ${PUSH_KINDS.join(', ')}`);
  return Object.fromEntries(
    PUSH_KINDS.map((kind) => [kind, given[kind] === undefined ? base[kind] : flagOf(`alerts.${kind}`, given[kind])]),
  ) as PushAlerts;
}
