/**
 * The inbox's signature check, before any JSON-LD work (issue 68, item 33). Fedify reads an
 * activity's JSON-LD (for Object Integrity Proofs and Linked Data Signatures) before it checks the
 * HTTP signature, so an unsigned request had the server expand whatever context it carried. Here the
 * request's HTTP signature (draft-cavage or RFC 9421) is verified first, with the key fetched
 * through the guarded loaders; only a request signed by some server's key reaches Fedify, which then
 * checks that the key is the actor's (and, narrowly, a deleted account's farewell, whose key is
 * gone). The keys are kept where Fedify keeps them, in its format (`inboxKeyCache.ts`), so Fedify's
 * own check reads the key this one fetched.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { type KvStore, verifyRequestDetailed } from '@fedify/fedify';
import { preloadedContexts } from '@fedify/vocab-runtime';
import { type Loaders, kvKeyCache } from './inboxKeyCache';

/** Whether the request carries an HTTP signature at all (either scheme). */
export function hasSignatureHeaders(headers: IncomingHttpHeaders): boolean {
  return headers.signature !== undefined || headers['signature-input'] !== undefined;
}

/** An id given as a string or as an object's `id`. */
const idOf = (value: unknown) =>
  typeof value === 'string'
    ? value
    : typeof value === 'object' && value !== null
      ? (value as { id?: unknown }).id
      : undefined;

/** Every context the document names by URL is one kept in memory: reading it fetches nothing. */
function namesOnlyPreloadedContexts(document: unknown): boolean {
  if (typeof document !== 'object' || document === null) return true;
  return Object.entries(document).every(([key, value]) =>
    key === '@context'
      ? [value].flat().every((context) => typeof context !== 'string' || context in preloadedContexts)
      : namesOnlyPreloadedContexts(value),
  );
}

/**
 * A deleted account's farewell: `Delete` of its own actor, signed with a key at the actor's server
 * that can no longer be fetched (gone with the account). Fedify's unverified-activity handler
 * (`inbox.ts`) takes it only once the actor's address answers gone; it is read as JSON-LD without a
 * signature, so only when it names no context that would be fetched.
 */
function mayBeFarewell(activity: Record<string, unknown>, keyId: URL): boolean {
  const actor = idOf(activity.actor);
  // Stryker disable next-line ConditionalExpression: an id that is not text is no URL either (refused below)
  if (activity.type !== 'Delete' || typeof actor !== 'string' || actor !== idOf(activity.object)) return false;
  try {
    return new URL(actor).origin === keyId.origin && namesOnlyPreloadedContexts(activity);
  } catch {
    return false;
  }
}

/**
 * Resolves whether the inbox hands `request` (whose body is `activity`) to Fedify: its HTTP signature
 * verifies with its signer's key (who owns the key is Fedify's check), or it may be a deleted
 * account's farewell.
 */
export type SignatureCheck = (request: Request, activity: Record<string, unknown>) => Promise<boolean>;

export function inboxSignatureCheck(kv: KvStore, loaders: () => Loaders): SignatureCheck {
  const keyCache = kvKeyCache(kv, loaders);
  return async (request, activity) => {
    const result = await verifyRequestDetailed(request, { ...loaders(), keyCache });
    if (result.verified) return true;
    return result.reason.type === 'keyFetchError' && mayBeFarewell(activity, result.reason.keyId);
  };
}
