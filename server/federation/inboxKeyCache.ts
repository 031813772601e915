/**
 * Fedify's key cache over its key–value store, in the format its inbox reads and writes: the keys
 * the inbox's signature check (`inboxSignature.ts`) fetched, and why a key could not be fetched.
 * Kept where Fedify keeps them, so Fedify's own check reads the key that one fetched.
 */
import type { FetchKeyErrorResult, KeyCache, KvKey, KvStore } from '@fedify/fedify';
import { CryptographicKey, Multikey } from '@fedify/vocab';
import type { DocumentLoader } from '@fedify/vocab-runtime';
import { duration } from './temporal';

/** Fedify's prefix for kept public keys (its default), shared with `signedInbox.ts`. */
export const PUBLIC_KEY_PREFIX = ['_fedify', 'publicKey'] as const;
/** How long a key that could not be fetched is not asked for again (Fedify's default). */
const UNAVAILABLE_KEY_FOR = duration({ minutes: 10 });

export interface Loaders {
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

/** Fedify's key cache over its key–value store, in the format its inbox reads and writes. */
export function kvKeyCache(kv: KvStore, loaders: () => Loaders): KeyCacheWithErrors {
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
