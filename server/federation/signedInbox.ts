/**
 * The inbox's short path (issue 32, ≥ 500 signed activities a second): an activity signed the way
 * Mastodon signs (draft-cavage RSA, `Digest: SHA-256`) with a key this server already keeps is
 * checked here, parsed once and handed to the listeners. Fedify's own path parses the activity
 * twice and rebuilds the kept key from its JSON-LD on every request (docs/benchmarks/log/2026-11-27.md, "The
 * inbox's short path").
 *
 * This path only ever accepts: whatever it does not take for certain (another signature scheme,
 * an unknown or changed key, a failed check, a Linked Data signature or proof, a key owned by
 * someone else) goes to Fedify unchanged, which refuses (401), refetches a rotated key, or accepts.
 * The checks are Fedify's: the signed headers include `(request-target)`, `date` and `digest`, the
 * date within an hour, the digest over the body, the key's owner the activity's actor, and each
 * activity id processed once per inbox (the same replay record as Fedify's, so either path sees
 * the other's).
 */
import { KeyObject, createHash, timingSafeEqual, verify } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Context, KvKey, KvStore } from '@fedify/fedify';
import { Activity, CryptographicKey } from '@fedify/vocab';
import { duration } from './temporal';
import { PUBLIC_KEY_PREFIX } from './inboxKeyCache';

/** Fedify's default `signatureTimeWindow`. */
const TIME_WINDOW_MS = 60 * 60 * 1000;
/** Fedify's key–value prefix of processed activities (its default), shared with its path. */
const IDEMPOTENCE_PREFIX = ['_fedify', 'activityIdempotence'] as const;
const PROCESSED_FOR = duration({ days: 1 });

export interface InboxListener {
  type: abstract new (...args: never[]) => Activity;
  handle: (ctx: Context<void>, activity: Activity) => Promise<void>;
}

/** A listener for one kind of activity, in the table both paths dispatch from. */
export function listener<T extends Activity>(
  type: abstract new (...args: never[]) => T,
  handle: (ctx: Context<void>, activity: T) => Promise<void>,
): InboxListener {
  return { type, handle: handle as InboxListener['handle'] };
}

export interface SignedRequest {
  method: string;
  /** The path without the query (what `(request-target)` signs). */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface KeptKey {
  publicKey: KeyObject;
  owner: string;
}

/** `keyId="…",headers="…"` as Fedify reads it. */
function signatureFields(header: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const pair of header.split(',')) {
    const match = /^\s*([A-Za-z]+)=(?:"([^"]*)"|(\d+))\s*$/.exec(pair);
    if (match) fields[match[1]] = match[2] ?? match[3];
  }
  return fields;
}

const single = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/**
 * The signed message and signature of a draft-cavage request whose date and body digest check
 * out, or null when anything about it is not the plain case (Fedify then decides).
 */
export function draftSignature(
  request: SignedRequest,
  now: number,
): { keyId: string; message: string; signature: Buffer } | null {
  const header = single(request.headers.signature);
  if (!header || request.headers['signature-input'] !== undefined) return null;
  const fields = signatureFields(header);
  const { keyId, headers, signature } = fields;
  if (!keyId || !headers || !signature || 'created' in fields || 'expires' in fields) return null;
  if (fields.algorithm && !/^(rsa-sha256|hs2019)$/i.test(fields.algorithm)) return null;
  const names = headers.trim().toLowerCase().split(/\s+/);
  if (!names.includes('(request-target)') || !names.includes('date') || !names.includes('digest')) return null;

  // Stryker disable next-line StringLiteral: any text that is no date parses as NaN alike
  const date = Date.parse(single(request.headers.date) ?? '');
  if (!(Math.abs(date - now) <= TIME_WINDOW_MS)) return null;
  // Stryker disable next-line StringLiteral: any text without the digest's form is refused alike
  const digest = /^\s*sha-256=([A-Za-z0-9+/]+={0,2})\s*$/i.exec(single(request.headers.digest) ?? '');
  if (!digest) return null;
  const expected = createHash('sha256').update(request.body).digest();
  const given = Buffer.from(digest[1], 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;

  const lines: string[] = [];
  for (const name of names) {
    if (name === '(request-target)') lines.push(`${name}: ${request.method.toLowerCase()} ${request.path}`);
    else {
      const value = single(request.headers[name]);
      if (value === undefined) return null;
      lines.push(`${name}: ${value}`);
    }
  }
  return { keyId, message: lines.join('\n'), signature: Buffer.from(signature, 'base64') };
}

/** Whether the JSON carries a Linked Data signature or an Object Integrity Proof (Fedify's path checks those). */
const hasEmbeddedProof = (json: Record<string, unknown>) => 'signature' in json || 'proof' in json;

export interface SignedInboxOptions {
  kv: KvStore;
  /** A context made once: the listeners read its loaders and send through it. */
  context: () => Context<void>;
  listeners: InboxListener[];
  /** The local person with this actor identifier, if they may be followed (exists, not suspended). */
  isLocalPerson: (identifier: string) => Promise<boolean>;
  onError: (error: unknown, what: string) => void;
  now?: () => number;
}

export type SignedInboxAnswer = { status: 202 | 500; body: string };

export interface SignedInbox {
  /** The answer, or null: Fedify's path takes the request. `recipient`: a personal inbox's owner. */
  handle(request: SignedRequest, recipient: string | null): Promise<SignedInboxAnswer | null>;
}

export function signedInbox(options: SignedInboxOptions): SignedInbox {
  const { kv, listeners, now = Date.now } = options;
  // Keyed by the store's JSON of the key: the memo in front of the store hands out the same
  // object until the key is set, deleted or expires, and then this entry goes with it.
  const parsed = new WeakMap<object, KeptKey | null>();

  async function keptKey(keyId: string): Promise<KeptKey | null> {
    const json = await kv.get<unknown>([...PUBLIC_KEY_PREFIX, keyId]);
    if (typeof json !== 'object' || json === null) return null;
    let key = parsed.get(json);
    // Stryker disable next-line ConditionalExpression: the memo only saves parsing the key again
    if (key === undefined) {
      key = null;
      try {
        const ctx = options.context();
        const found = await CryptographicKey.fromJsonLd(json, {
          documentLoader: ctx.documentLoader,
          contextLoader: ctx.contextLoader,
        });
        if (found.publicKey && found.ownerId && found.publicKey.algorithm.name === 'RSASSA-PKCS1-v1_5')
          key = { publicKey: KeyObject.from(found.publicKey), owner: found.ownerId.href };
      } catch {
        // Not a key this path reads (a Multikey, say): Fedify's path reads it.
      }
      // Stryker disable next-line CallExpression: as above
      parsed.set(json, key);
    }
    return key;
  }

  return {
    async handle(request, recipient) {
      const signed = draftSignature(request, now());
      if (!signed) return null;
      const key = await keptKey(signed.keyId);
      if (!key || !verify('sha256', Buffer.from(signed.message), key.publicKey, signed.signature)) return null;

      let json: unknown;
      try {
        json = JSON.parse(request.body.toString('utf8'));
      } catch {
        return null;
      }
      if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
      if (hasEmbeddedProof(json as Record<string, unknown>)) return null;
      if (recipient !== null && !(await options.isLocalPerson(recipient))) return null;

      const ctx = options.context();
      let activity: Activity;
      try {
        activity = await Activity.fromJsonLd(json, {
          documentLoader: ctx.documentLoader,
          contextLoader: ctx.contextLoader,
        });
      } catch {
        return null;
      }
      if (!activity.id || activity.actorId?.href !== key.owner) return null;

      const processed: KvKey = [
        ...IDEMPOTENCE_PREFIX,
        `${ctx.origin}\n${activity.id.href}\n${recipient === null ? 'sharedInbox' : `inbox\n${recipient}`}`,
      ];
      if ((await kv.get(processed)) === true)
        return { status: 202, body: `Activity <${activity.id.href}> has already been processed.` };
      const listener = listeners.find(({ type }) => activity instanceof type);
      if (!listener) return { status: 202, body: '' };
      try {
        await listener.handle(ctx, activity);
      } catch (error) {
        options.onError(error, `handling ${activity.id.href} failed`);
        return { status: 500, body: 'Internal server error.' };
      }
      // Stryker disable next-line ObjectLiteral: how long the record is kept (a day) no test waits for
      await kv.set(processed, true, { ttl: PROCESSED_FOR });
      return { status: 202, body: '' };
    },
  };
}
