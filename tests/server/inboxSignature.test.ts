/**
 * The inbox's signature check before any JSON-LD work (`federation/inboxSignature.ts`): a request
 * passes when its HTTP signature holds with its signer's key (fetched once, then read from the key
 * store), or when it may be a deleted account's farewell (a `Delete` of its own actor whose key at
 * the actor's server can no longer be fetched). The inbox's answers through the app are in
 * federationInboxGate.test.ts and federationAccountDeletion.test.ts.
 */
import { MemoryKvStore, createFederation, generateCryptoKeyPair, signRequest } from '@fedify/fedify';
import { CryptographicKey } from '@fedify/vocab';
import { type DocumentLoader, FetchError } from '@fedify/vocab-runtime';
import { hasSignatureHeaders, inboxSignatureCheck } from '../../server/federation/inboxSignature';

const local = 'https://posts.example';
const remote = 'https://elsewhere.example';
const zoe = `${remote}/actors/zoe`;
const keyId = `${zoe}#main-key`;
const zoeKeys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
const context = createFederation<void>({ kv: new MemoryKvStore() }).createContext(new URL(local), undefined);
const keyJson = await new CryptographicKey({
  id: new URL(keyId),
  owner: new URL(zoe),
  publicKey: zoeKeys.publicKey,
}).toJsonLd({ contextLoader: context.contextLoader });

/** What the key's address answers: the key, a status (gone, say), or a network failure. */
type KeyAnswer = 'key' | number | 'unreachable';

function setUp(answer: { current: KeyAnswer }) {
  const kv = new MemoryKvStore();
  const fetched: string[] = [];
  const documentLoader: DocumentLoader = async (url) => {
    fetched.push(url);
    if (!url.startsWith(remote)) return context.documentLoader(url);
    if (answer.current === 'key') return { contextUrl: null, documentUrl: url, document: keyJson };
    if (answer.current === 'unreachable') throw new TypeError('fetch failed');
    throw new FetchError(
      new URL(url),
      `HTTP ${answer.current}`,
      new Response('gone', { status: answer.current, statusText: 'Gone', headers: { 'x-why': 'deleted' } }),
    );
  };
  const check = inboxSignatureCheck(kv, () => ({ documentLoader, contextLoader: context.contextLoader }));
  return { kv, fetched, check };
}

const activity = (fields: Record<string, unknown>) => ({
  '@context': 'https://www.w3.org/ns/activitystreams',
  id: `${remote}/activities/${Math.random()}`,
  ...fields,
});
const farewell = (extra: Record<string, unknown> = {}) =>
  activity({ type: 'Delete', actor: zoe, object: zoe, ...extra });

async function signed(body: Record<string, unknown>, key = zoeKeys.privateKey): Promise<Request> {
  const request = new Request(`${local}/inbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/activity+json' },
    body: JSON.stringify(body),
  });
  return signRequest(request, key, new URL(keyId));
}

const keptKey = (kv: MemoryKvStore) => kv.get(['_fedify', 'publicKey', keyId]);
const keptFailure = (kv: MemoryKvStore) => kv.get(['_fedify', 'publicKey', '__fetchError', keyId]);

describe("the inbox's signature check", () => {
  it('tells a signed request by either scheme', () => {
    expect(hasSignatureHeaders({ signature: 'keyId="x"' })).toBe(true);
    expect(hasSignatureHeaders({ 'signature-input': 'sig1=()' })).toBe(true);
    expect(hasSignatureHeaders({ 'content-type': 'application/activity+json' })).toBe(false);
  });

  it("passes a request signed with its signer's key, fetched once and then read from the store", async () => {
    const answer = { current: 'key' as KeyAnswer };
    const { kv, fetched, check } = setUp(answer);
    const like = activity({ type: 'Like', actor: zoe, object: `${local}/post/1` });
    expect(await check(await signed(like), like)).toBe(true);
    expect(fetched.filter((url) => url.startsWith(remote))).toHaveLength(1);
    expect(await keptKey(kv)).toMatchObject({ id: keyId, owner: zoe });
    // The key's address no longer answers: the kept key still checks the next request.
    answer.current = 'unreachable';
    expect(await check(await signed(like), like)).toBe(true);
    expect(fetched.filter((url) => url.startsWith(remote))).toHaveLength(1);
  });

  it('refuses an unsigned request, a changed body and another key, even for a farewell once the key is known', async () => {
    const { check } = setUp({ current: 'key' });
    const like = activity({ type: 'Like', actor: zoe, object: `${local}/post/1` });
    const unsigned = new Request(`${local}/inbox`, { method: 'POST', body: JSON.stringify(like) });
    expect(await check(unsigned, like)).toBe(false);
    const good = await signed(like);
    const changed = new Request(good, { body: JSON.stringify({ ...like, object: `${local}/post/2` }) });
    expect(await check(changed, like)).toBe(false);
    const other = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
    expect(await check(await signed(like, other.privateKey), like)).toBe(false);
    // The key could be fetched: its account is not gone, so a Delete of itself is not taken unsigned.
    expect(await check(await signed(farewell(), other.privateKey), farewell())).toBe(false);
  });

  it("passes a deleted account's farewell whose key is gone, and keeps why it was gone", async () => {
    const { kv, check } = setUp({ current: 410 });
    const bye = farewell();
    expect(await check(await signed(bye), bye)).toBe(true);
    expect(await keptKey(kv)).toBeNull();
    expect(await keptFailure(kv)).toEqual({
      status: 410,
      statusText: 'Gone',
      headers: [
        ['content-type', 'text/plain;charset=UTF-8'],
        ['x-why', 'deleted'],
      ],
      body: 'gone',
    });
    // Again, from the kept failure (the key is not fetched again): the actor given as an object too.
    const again = farewell({ actor: { id: zoe, type: 'Person' } });
    expect(await check(await signed(again), again)).toBe(true);
  });

  it('passes a farewell whose key could not be reached at all, from the kept error too', async () => {
    const { kv, check } = setUp({ current: 'unreachable' });
    const bye = farewell();
    expect(await check(await signed(bye), bye)).toBe(true);
    expect(await keptFailure(kv)).toEqual({ errorName: 'TypeError', errorMessage: 'fetch failed' });
    expect(await check(await signed(bye), bye)).toBe(true);
  });

  it('refuses, when the key is gone, anything but a Delete of its own actor at the key’s server read without fetching', async () => {
    const { check } = setUp({ current: 410 });
    const refused: Record<string, Record<string, unknown>> = {
      'a Like': activity({ type: 'Like', actor: zoe, object: zoe }),
      'a Delete of someone else': farewell({ object: `${remote}/actors/yan` }),
      'a Delete of a note': farewell({ object: { id: `${remote}/notes/1`, type: 'Note' } }),
      'a Delete with no actor': farewell({ actor: undefined, object: undefined }),
      'an actor at another server': farewell({
        actor: 'https://third.example/actors/zoe',
        object: 'https://third.example/actors/zoe',
      }),
      'an actor that is not a URL': farewell({ actor: 'zoe', object: 'zoe' }),
      'an actor given as a number': farewell({ actor: 7, object: 7 }),
      'an actor given as null': farewell({ actor: null, object: null }),
      'a context in a list that would be fetched': farewell({
        signature: [{ type: 'RsaSignature2017' }, { '@context': `${remote}/ctx` }],
      }),
      'a context that would be fetched': farewell({ '@context': 'https://elsewhere.example/context.jsonld' }),
      'a nested context that would be fetched': farewell({
        object: zoe,
        signature: [{ '@context': ['https://w3id.org/security/v1', `${remote}/ctx`] }],
      }),
    };
    for (const [what, body] of Object.entries(refused)) expect(await check(await signed(body), body), what).toBe(false);
    // Contexts kept in memory, given as a list or inline objects, nested, are read without fetching.
    const nested = farewell({
      '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1', { toot: 'x' }],
      signature: [{ '@context': 'https://w3id.org/security/v1', type: 'RsaSignature2017' }],
      summary: null,
      to: ['https://www.w3.org/ns/activitystreams#Public', 3],
    });
    expect(await check(await signed(nested), nested)).toBe(true);
  });
});
