/**
 * The inbox's short path (`signedInbox.ts`): it takes a draft-cavage signed activity whose key is
 * kept here, and hands everything it cannot take for certain back to Fedify (null), never refusing
 * on its own. The app's inbox checks through Fedify are in federationDelivery.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { MemoryKvStore, createFederation, generateCryptoKeyPair, signRequest } from '@fedify/fedify';
import { CryptographicKey, Like } from '@fedify/vocab';
import type { Activity } from '@fedify/vocab';
import { type SignedRequest, draftSignature, listener, signedInbox } from '../../server/federation/signedInbox';

const local = 'https://posts.example';
const remote = 'https://elsewhere.example';
const zoe = `${remote}/actors/zoe`;
const yan = `${remote}/actors/yan`;
const zoeKeys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
const context = createFederation<void>({ kv: new MemoryKvStore() }).createContext(new URL(local), undefined);

async function keepKey(kv: MemoryKvStore, keyId: string, owner: string) {
  const key = new CryptographicKey({ id: new URL(keyId), owner: new URL(owner), publicKey: zoeKeys.publicKey });
  await kv.set(['_fedify', 'publicKey', keyId], await key.toJsonLd({ contextLoader: context.contextLoader }));
}

const likeBody = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${remote}/likes/${id}`,
    type: 'Like',
    actor: zoe,
    object: `${local}/post/1`,
    ...extra,
  });

async function signed(body: string, path = '/inbox'): Promise<SignedRequest> {
  const request = await signRequest(
    new Request(`${local}${path}`, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body }),
    zoeKeys.privateKey,
    new URL(`${zoe}#main-key`),
  );
  return {
    method: 'POST',
    path,
    headers: Object.fromEntries(request.headers),
    body: Buffer.from(await request.arrayBuffer()),
  };
}

function setUp(options: { owner?: string; fail?: boolean; now?: () => number } = {}) {
  const kv = new MemoryKvStore();
  const handled: Activity[] = [];
  const errors: unknown[] = [];
  const inbox = signedInbox({
    kv,
    context: () => context,
    listeners: [
      listener(Like, async (_ctx, like) => {
        handled.push(like);
        if (options.fail) throw new Error('the store is down');
      }),
    ],
    isLocalPerson: async (identifier) => identifier === 'ann',
    onError: (error) => errors.push(error),
    now: options.now,
  });
  return { kv, inbox, handled, errors, keep: () => keepKey(kv, `${zoe}#main-key`, options.owner ?? zoe) };
}

describe("the inbox's short path", () => {
  it('takes a signed activity whose key is kept, once per activity id', async () => {
    const { inbox, handled, keep } = setUp();
    await keep();
    const request = await signed(likeBody('1'));
    expect(await inbox.handle(request, null)).toEqual({ status: 202, body: '' });
    expect(handled.map((like) => like.id?.href)).toEqual([`${remote}/likes/1`]);
    // Sent again (a retry or a replay): answered, not done again.
    expect(await inbox.handle(await signed(likeBody('1')), null)).toEqual({
      status: 202,
      body: `Activity <${remote}/likes/1> has already been processed.`,
    });
    expect(handled).toHaveLength(1);
    // Another inbox keeps its own record, as Fedify's "per-inbox" does.
    expect((await inbox.handle(await signed(likeBody('1'), '/users/ann/inbox'), 'ann'))?.status).toBe(202);
    expect(handled).toHaveLength(2);
  });

  it('leaves to Fedify a key it does not keep, and uses it once kept', async () => {
    const { inbox, handled, keep } = setUp();
    const request = await signed(likeBody('2'));
    expect(await inbox.handle(request, null)).toBeNull();
    await keep();
    expect(await inbox.handle(request, null)).toEqual({ status: 202, body: '' });
    expect(handled).toHaveLength(1);
  });

  it('leaves to Fedify what does not hold: a changed body, a bad signature, an old date, another owner', async () => {
    const { inbox, handled, keep } = setUp();
    await keep();
    const good = await signed(likeBody('3'));
    // The body changed after signing: the digest fails.
    expect(await inbox.handle({ ...good, body: Buffer.from(likeBody('4')) }, null)).toBeNull();
    // Body and digest replaced together: the signature (over the digest) fails.
    const other = await signed(likeBody('4'));
    expect(await inbox.handle({ ...good, body: other.body }, null)).toBeNull();
    expect(
      await inbox.handle(
        { ...good, body: other.body, headers: { ...good.headers, digest: other.headers.digest } },
        null,
      ),
    ).toBeNull();
    // Signed for another inbox.
    expect(await inbox.handle({ ...good, path: '/users/ann/inbox' }, 'ann')).toBeNull();
    expect(handled).toHaveLength(0);

    const late = setUp({ now: () => Date.now() + 2 * 60 * 60 * 1000 });
    await late.keep();
    expect(await late.inbox.handle(good, null)).toBeNull();

    // The key is someone else's than the activity's actor.
    const borrowed = setUp({ owner: yan });
    await borrowed.keep();
    expect(await borrowed.inbox.handle(good, null)).toBeNull();
    expect(borrowed.handled).toHaveLength(0);
  });

  it('leaves to Fedify embedded proofs, RFC 9421 signatures, and an inbox with no such person', async () => {
    const { inbox, handled, keep } = setUp();
    await keep();
    expect(
      await inbox.handle(await signed(likeBody('5', { signature: { type: 'RsaSignature2017' } })), null),
    ).toBeNull();
    expect(await inbox.handle(await signed(likeBody('6', { proof: { type: 'DataIntegrityProof' } })), null)).toBeNull();
    const good = await signed(likeBody('7'));
    expect(
      await inbox.handle({ ...good, headers: { ...good.headers, 'signature-input': 'sig1=()' } }, null),
    ).toBeNull();
    const toBen = await signed(likeBody('8'), '/users/ben/inbox');
    expect(await inbox.handle(toBen, 'ben')).toBeNull();
    expect(handled).toHaveLength(0);
  });

  it('answers 500 when handling fails, and keeps no record: a retry is handled again', async () => {
    const { inbox, handled, errors, keep } = setUp({ fail: true });
    await keep();
    expect(await inbox.handle(await signed(likeBody('9')), null)).toEqual({
      status: 500,
      body: 'Internal server error.',
    });
    expect(await inbox.handle(await signed(likeBody('9')), null)).toEqual({
      status: 500,
      body: 'Internal server error.',
    });
    expect(handled).toHaveLength(2);
    expect(errors).toHaveLength(2);
  });
});

describe('draftSignature', () => {
  it('needs (request-target), date and digest among the signed headers', async () => {
    const request = await signed(likeBody('10'));
    const now = Date.now();
    expect(draftSignature(request, now)?.keyId).toBe(`${zoe}#main-key`);
    for (const without of ['(request-target) ', 'date ', 'digest']) {
      const header = String(request.headers.signature).replace(
        /headers="([^"]*)"/,
        (_all, list: string) => `headers="${list.replace(without, '').trim()}"`,
      );
      expect(header).not.toBe(request.headers.signature);
      expect(draftSignature({ ...request, headers: { ...request.headers, signature: header } }, now)).toBeNull();
    }
    expect(draftSignature({ ...request, headers: { ...request.headers, digest: undefined } }, now)).toBeNull();
  });
});
