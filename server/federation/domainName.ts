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
  const host = url.hostname;
  const ip = isIP(host.replace(/^\[|\]$/g, ''));
  if (!ip && (host.length > 253 || !host.split('.').every((label) => LABEL.test(label)))) throw invalid();
  return url.host;
}

/** What a server's host is matched against: itself, then without its port, then its parent domains. */
export function domainCandidates(host: string): string[] {
  const lower = host.toLowerCase();
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
