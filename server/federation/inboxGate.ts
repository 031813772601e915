/**
 * The first look at an inbox POST (issue 32, item 6): which servers it says it comes from — the
 * host of the signing key (draft-cavage `Signature: keyId=…`, RFC 9421 `Signature-Input: …keyid=…`)
 * and of the activity's `actor` — so that a suspended domain is refused (403) before its
 * signature is checked or its key fetched. Fedify then checks that the key is the actor's.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { DomainSeverity } from '../../lib/types';

const KEY_ID = /\bkeyid\s*=\s*"([^"]+)"/gi;

function hostOf(uri: unknown): string | null {
  if (typeof uri !== 'string') return null;
  try {
    return new URL(uri).host;
  } catch {
    return null;
  }
}

export function senderHosts(headers: IncomingHttpHeaders, body: Buffer): string[] {
  const hosts = new Set<string>();
  for (const name of ['signature', 'signature-input']) {
    const value = headers[name];
    for (const header of Array.isArray(value) ? value : value ? [value] : [])
      for (const [, keyId] of header.matchAll(KEY_ID)) {
        const host = hostOf(keyId);
        if (host) hosts.add(host);
      }
  }
  try {
    const { actor } = JSON.parse(body.toString('utf8')) as { actor?: unknown };
    const host = hostOf(typeof actor === 'object' && actor !== null ? (actor as { id?: unknown }).id : actor);
    if (host) hosts.add(host);
  } catch {
    // Not JSON: Fedify answers it.
  }
  return [...hosts];
}

/** The first of `hosts` that is suspended here, or null. */
export async function suspendedSender(
  headers: IncomingHttpHeaders,
  body: Buffer,
  severityOf: (host: string) => Promise<DomainSeverity | null>,
): Promise<string | null> {
  for (const host of senderHosts(headers, body)) if ((await severityOf(host)) === 'suspend') return host;
  return null;
}
