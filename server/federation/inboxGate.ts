/**
 * The first look at an inbox POST (issue 32, item 6): which servers it says it comes from — the
 * host of the signing key (draft-cavage `Signature: keyId=…`, RFC 9421 `Signature-Input: …keyid=…`)
 * and of the activity's `actor` — so that a suspended domain is refused (403) before its
 * signature is checked or its key fetched. Fedify then checks that the key is the actor's.
 * Before that, the body itself: a JSON object within the bounds of what is read as JSON-LD.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { DomainSeverity } from '../../lib/types';
import { jsonLdProblem } from '../outgoing/jsonLdBounds';

const KEY_ID = /\bkeyid\s*=\s*"([^"]+)"/gi;

function hostOf(uri: unknown): string | null {
  if (typeof uri !== 'string') return null;
  try {
    return new URL(uri).host;
  } catch {
    return null;
  }
}

export function senderHosts(headers: IncomingHttpHeaders, activity: Record<string, unknown>): string[] {
  const hosts = new Set<string>();
  for (const name of ['signature', 'signature-input']) {
    const value = headers[name];
    for (const header of Array.isArray(value) ? value : value ? [value] : [])
      for (const [, keyId] of header.matchAll(KEY_ID)) {
        const host = hostOf(keyId);
        if (host) hosts.add(host);
      }
  }
  const { actor } = activity;
  const host = hostOf(typeof actor === 'object' && actor !== null ? (actor as { id?: unknown }).id : actor);
  if (host) hosts.add(host);
  return [...hosts];
}

/** The host of the (first) signing key the request names, or null when it names none. */
export function keyHostOf(headers: IncomingHttpHeaders): string | null {
  return senderHosts(headers, {})[0] ?? null;
}

/** The first of `hosts` that is suspended here, or null. */
export async function suspendedSender(
  headers: IncomingHttpHeaders,
  activity: Record<string, unknown>,
  severityOf: (host: string) => Promise<DomainSeverity | null>,
): Promise<string | null> {
  for (const host of senderHosts(headers, activity)) if ((await severityOf(host)) === 'suspend') return host;
  return null;
}

/**
 * The inbox body as a JSON object, or why it is refused before anything reads it as JSON-LD (not
 * JSON, not an object, past the bounds of `jsonLdBounds.ts`).
 */
export function parseInboxBody(body: Buffer): { activity: Record<string, unknown> } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { problem: 'The body is not JSON.' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { problem: 'The body is not a JSON object.' };
  const problem = jsonLdProblem(json);
  return problem ? { problem: `The activity is refused: ${problem}` } : { activity: json as Record<string, unknown> };
}
