/**
 * The inbox's signature check, before any JSON-LD work (issue 68, item 33). Fedify reads an
 * activity's JSON-LD (for Object Integrity Proofs and Linked Data Signatures) before it checks the
 * HTTP signature, so an unsigned request had the server expand whatever context it carried. Here the
 * request's HTTP signature (draft-cavage or RFC 9421) is verified first, with the key fetched
 * through the guarded loaders; only a request signed by some server's key reaches Fedify, which then
 * checks that the key is the actor's (and, narrowly, a deleted account's farewell, whose key is
 * gone). The keys are kept where Fedify keeps them, in its format, so Fedify's own check reads the
 * key this one fetched.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  type FetchKeyErrorResult,
  type KeyCache,
  type KvKey,
  type KvStore,
  verifyRequestDetailed,
} from '@fedify/fedify';
import { CryptographicKey, Multikey } from '@fedify/vocab';
import { type DocumentLoader, preloadedContexts } from '@fedify/vocab-runtime';
import { duration } from './temporal';

/** Fedify's prefix for kept public keys (its default), shared with `signedInbox.ts`. */
export const PUBLIC_KEY_PREFIX = ['_fedify', 'publicKey'] as const;
/** How long a key that could not be fetched is not asked for again (Fedify's default). */
const UNAVAILABLE_KEY_FOR = duration({ minutes: 10 });

interface Loaders {
  documentLoader: DocumentLoader;
  contextLoader: DocumentLoader;
}

/** Fedify's record of a failed key fetch, in its format. */
type KeptFetchError =
  | { status: number; statusText: string; headers: [string, string][]; body: string }
  | { errorName: string; errorMessage: string };

/** The key cache with the failed fetches, which Fedify reads when its cache has them (undeclared in its types). */
interface KeyCacheWithErrors extends KeyCache {
  getFetchError(keyId: URL): Promise<FetchKeyErrorResult | undefined>;
  setFetchError(keyId: URL, failure: FetchKeyErrorResult | null): Promise<void>;
}

const fetchErrorKey = (keyId: URL): KvKey => [...PUBLIC_KEY_PREFIX, '__fetchError', keyId.href];

/** Whether the request carries an HTTP signature at all (either scheme). */
export function hasSignatureHeaders(headers: IncomingHttpHeaders): boolean {
  return headers.signature !== undefined || headers['signature-input'] !== undefined;
}

/** Fedify's key cache over its key–value store, in the format its inbox reads and writes. */
function kvKeyCache(kv: KvStore, loaders: () => Loaders): KeyCacheWithErrors {
  return {
    async get(keyId) {
      const json = await kv.get<unknown>([...PUBLIC_KEY_PREFIX, keyId.href]);
      if (json === undefined || json === null) return json as null | undefined;
      try {
        return await CryptographicKey.fromJsonLd(json, loaders());
      } catch {
        try {
          return await Multikey.fromJsonLd(json, loaders());
        } catch {
          return undefined;
        }
      }
    },
    async set(keyId, key) {
      const at: KvKey = [...PUBLIC_KEY_PREFIX, keyId.href];
      if (key === null) await kv.set(at, null, { ttl: UNAVAILABLE_KEY_FOR });
      else await kv.set(at, await key.toJsonLd(loaders()));
    },
    // Why a key could not be fetched, kept beside an unavailable key: Fedify's unverified-activity
    // handler tells a gone account's farewell by it (an HTTP status, or an error's name and message).
    async getFetchError(keyId) {
      const kept = await kv.get<KeptFetchError>(fetchErrorKey(keyId));
      if (typeof kept !== 'object' || kept === null) return undefined;
      if ('status' in kept)
        return {
          status: kept.status,
          response: new Response(kept.body, {
            status: kept.status,
            statusText: kept.statusText,
            headers: kept.headers,
          }),
        };
      const error = new Error(kept.errorMessage);
      error.name = kept.errorName;
      return { error };
    },
    async setFetchError(keyId, failure) {
      if (failure === null) return void (await kv.delete(fetchErrorKey(keyId)));
      const kept: KeptFetchError =
        'status' in failure
          ? {
              status: failure.status,
              statusText: failure.response.statusText,
              headers: [...failure.response.headers.entries()],
              body: await failure.response.clone().text(),
            }
          : { errorName: failure.error.name, errorMessage: failure.error.message };
      await kv.set(fetchErrorKey(keyId), kept, { ttl: UNAVAILABLE_KEY_FOR });
    },
  };
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
  if (Array.isArray(document)) return document.every(namesOnlyPreloadedContexts);
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
