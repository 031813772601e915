/**
 * A domain as admins type it and as servers are matched against blocks: a host name or an IP
 * address, lower-case (IDNs in punycode), with its port when it has one. `example.com` also stands
 * for its subdomains (`media.example.com`), as Mastodon's domain blocks do.
 */
import { isIP } from 'node:net';
import type { DomainSeverity } from '../../lib/types';
import { InvalidError } from '../domain/errors';

/** A host name's longest form (RFC 1035) plus a port. */
export const DOMAIN_MAX = 260;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

const invalid = () =>
  new InvalidError('The domain must be a host name such as example.com, with a port if it has one', 'InvalidDomain');

/**
 * A host in its one written form, however it was spelled: lower-case, IDNs in punycode, IPv4 in
 * dotted decimal (`0x7f.1` too), without the trailing dot of a fully qualified name, an IPv4-mapped
 * IPv6 literal (`[::ffff:10.0.0.1]`) as its IPv4 address, and the port when it has one. Every host
 * compared with a block goes through it, so a blocked server cannot come back under another spelling.
 */
export function canonicalHost(host: string): string {
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return host.toLowerCase();
  }
  let name = url.hostname.replace(/\.+$/, '');
  // The URL parser writes a mapped address in hexadecimal: `[::ffff:a00:1]`.
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(name);
  if (mapped) {
    const [high, low] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
    name = [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return url.port ? `${name}:${url.port}` : name;
}

/** The domain in its one written form, or InvalidDomain (400). */
export function normalizeDomain(raw: unknown): string {
  if (typeof raw !== 'string') throw invalid();
  const text = raw.trim().toLowerCase();
  if (text === '' || text.length > DOMAIN_MAX || /[\s/?#@\\]/.test(text)) throw invalid();
  let url: URL;
  try {
    url = new URL(`http://${text}`);
  } catch {
    throw invalid();
  }
  const canonical = canonicalHost(url.host);
  const host = canonical.replace(/:\d+$/, '');
  const ip = isIP(host.replace(/^\[|\]$/g, ''));
  if (!ip && (host.length > 253 || !host.split('.').every((label) => LABEL.test(label)))) throw invalid();
  return canonical;
}

/** What a server's host is matched against: itself, then without its port, then its parent domains. */
export function domainCandidates(host: string): string[] {
  const lower = canonicalHost(host);
  const colon = lower.lastIndexOf(':');
  const bare = colon > lower.lastIndexOf(']') && colon !== -1 ? lower.slice(0, colon) : lower;
  const candidates = [lower];
  if (bare !== lower) candidates.push(bare);
  if (!isIP(bare.replace(/^\[|\]$/g, ''))) {
    const labels = bare.split('.');
    for (let i = 1; i < labels.length - 1; i++) candidates.push(labels.slice(i).join('.'));
  }
  return candidates;
}

/** A host's severity among `blocks` (domain -> severity): the strictest of its candidates' blocks. */
export function severityIn(blocks: ReadonlyMap<string, DomainSeverity>, host: string): DomainSeverity | null {
  if (blocks.size === 0) return null;
  let found: DomainSeverity | null = null;
  for (const candidate of domainCandidates(host)) {
    const severity = blocks.get(candidate);
    if (severity === 'suspend') return severity;
    found ??= severity ?? null;
  }
  return found;
}
