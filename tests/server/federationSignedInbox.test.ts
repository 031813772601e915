/**
 * The inbox's short path (`signedInbox.ts`): it takes a draft-cavage signed activity whose key is
 * kept here, and hands everything it cannot take for certain back to Fedify (null), never refusing
 * on its own. The app's inbox checks through Fedify are in federationDelivery.test.ts.
 */
import { createHash } from 'node:crypto';
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
  const said: string[] = [];
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
    onError: (error, what) => void (errors.push(error), said.push(what)),
    now: options.now,
  });
  return { kv, inbox, handled, errors, said, keep: () => keepKey(kv, `${zoe}#main-key`, options.owner ?? zoe) };
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
    const { inbox, handled, errors, said, keep } = setUp({ fail: true });
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
    expect(said).toEqual([`handling ${remote}/likes/9 failed`, `handling ${remote}/likes/9 failed`]);
  });

  it('leaves to Fedify a body that is no JSON object, an activity it cannot read, one without an actor', async () => {
    const { inbox, handled, keep } = setUp();
    await keep();
    const noActor = JSON.stringify({ ...JSON.parse(likeBody('30')), actor: undefined });
    const unreadable = JSON.stringify({ ...JSON.parse(likeBody('31')), id: 'not a url' });
    for (const body of ['not json', '[]', 'null', '3', '"text"', noActor, unreadable])
      expect(await inbox.handle(await signed(body), null), body).toBeNull();
    expect(handled).toHaveLength(0);
  });

  it('answers an activity no listener takes (202), and keeps no record of it', async () => {
    const { inbox, handled, keep } = setUp();
    await keep();
    const announce = likeBody('32').replace('"Like"', '"Announce"');
    expect(await inbox.handle(await signed(announce), null)).toEqual({ status: 202, body: '' });
    expect(await inbox.handle(await signed(announce), null)).toEqual({ status: 202, body: '' });
    expect(handled).toHaveLength(0);
  });

  it("reads Fedify's record of processed activities, per inbox, in Fedify's format", async () => {
    const { kv, inbox, handled, keep } = setUp();
    await keep();
    const id = `${remote}/likes/33`;
    await kv.set(['_fedify', 'activityIdempotence', `${local}\n${id}\nsharedInbox`], true);
    await kv.set(['_fedify', 'activityIdempotence', `${local}\n${id}\ninbox\nann`], true);
    const already = { status: 202, body: `Activity <${id}> has already been processed.` };
    expect(await inbox.handle(await signed(likeBody('33')), null)).toEqual(already);
    expect(await inbox.handle(await signed(likeBody('33'), '/users/ann/inbox'), 'ann')).toEqual(already);
    expect(handled).toHaveLength(0);
  });

  it('leaves to Fedify a key it keeps as unavailable, one with no owner, one that is not RSA', async () => {
    const request = await signed(likeBody('34'));
    const unavailable = setUp();
    await unavailable.kv.set(['_fedify', 'publicKey', `${zoe}#main-key`], null);
    expect(await unavailable.inbox.handle(request, null)).toBeNull();

    const ownerless = setUp();
    const noOwner = new CryptographicKey({ id: new URL(`${zoe}#main-key`), publicKey: zoeKeys.publicKey });
    await ownerless.kv.set(
      ['_fedify', 'publicKey', `${zoe}#main-key`],
      await noOwner.toJsonLd({ contextLoader: context.contextLoader }),
    );
    expect(await ownerless.inbox.handle(request, null)).toBeNull();

    const edwards = setUp();
    const ed = await generateCryptoKeyPair('Ed25519');
    const edKey = new CryptographicKey({
      id: new URL(`${zoe}#main-key`),
      owner: new URL(zoe),
      publicKey: ed.publicKey,
    });
    await edwards.kv.set(
      ['_fedify', 'publicKey', `${zoe}#main-key`],
      await edKey.toJsonLd({ contextLoader: context.contextLoader }),
    );
    expect(await edwards.inbox.handle(request, null)).toBeNull();
    expect([...unavailable.handled, ...ownerless.handled, ...edwards.handled]).toHaveLength(0);
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

describe('draftSignature, field by field', () => {
  const now = Date.parse('2026-12-06T12:00:00Z');
  const body = Buffer.from(likeBody('20'));
  const digest = `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
  const baseHeaders = { host: 'posts.example', date: new Date(now).toUTCString(), digest };

  /** A request signed over `names` with `fields` added to the Signature header (a fake signature: only parsing is checked here). */
  function request(
    options: { names?: string; fields?: string; headers?: Record<string, string | undefined>; path?: string } = {},
  ): SignedRequest {
    const names = options.names ?? '(request-target) host date digest';
    const signature = `keyId="${zoe}#main-key",${options.fields ?? 'algorithm="rsa-sha256",'}headers="${names}",signature="c2ln"`;
    return {
      method: 'POST',
      path: options.path ?? '/inbox',
      headers: { ...baseHeaders, signature, ...options.headers },
      body,
    };
  }

  it('signs the request target in lower case, then each named header as sent', () => {
    expect(draftSignature(request(), now)).toEqual({
      keyId: `${zoe}#main-key`,
      message: [
        '(request-target): post /inbox',
        'host: posts.example',
        `date: ${baseHeaders.date}`,
        `digest: ${digest}`,
      ].join('\n'),
      signature: Buffer.from('sig'),
    });
    // Names as the signer wrote them: any case, spaces around.
    expect(draftSignature(request({ names: '  (Request-Target)  Date DIGEST ' }), now)?.message).toBe(
      [`(request-target): post /inbox`, `date: ${baseHeaders.date}`, `digest: ${digest}`].join('\n'),
    );
    // A named header the request does not carry.
    expect(draftSignature(request({ headers: { host: undefined } }), now)).toBeNull();
  });

  it('takes rsa-sha256 and hs2019 in any case, or no algorithm; nothing else', () => {
    for (const fields of ['', 'algorithm="hs2019",', 'algorithm="RSA-SHA256",', ' algorithm = "hs2019" ,'.trim()])
      expect(draftSignature(request({ fields }), now), fields).not.toBeNull();
    for (const algorithm of ['ed25519', 'rsa-sha512', 'xrsa-sha256', 'rsa-sha256x', 'hs2019 '])
      expect(draftSignature(request({ fields: `algorithm="${algorithm}",` }), now), algorithm).toBeNull();
  });

  it('reads each field whole: spaces around it, nothing before or after it', () => {
    const spaced = `keyId="${zoe}#main-key" , headers="(request-target) host date digest" ,  signature="c2ln" `;
    expect(draftSignature({ ...request(), headers: { ...request().headers, signature: spaced } }, now)?.keyId).toBe(
      `${zoe}#main-key`,
    );
    // `x-algorithm` is no field of the scheme: not read as `algorithm`.
    expect(draftSignature(request({ fields: 'x-algorithm="ed25519",' }), now)).not.toBeNull();
    // A field with more after its value is not read: here the signature, so none.
    const trailing = (request().headers.signature as string).replace('signature="c2ln"', 'signature="c2ln"x');
    expect(draftSignature({ ...request(), headers: { ...request().headers, signature: trailing } }, now)).toBeNull();
  });

  it('leaves created and expires (numbers) to Fedify, and needs keyId, headers and signature', () => {
    expect(draftSignature(request({ fields: 'created=1765022400,' }), now)).toBeNull();
    expect(draftSignature(request({ fields: 'expires=1765026000,' }), now)).toBeNull();
    const header = request().headers.signature as string;
    for (const field of ['keyId', 'headers', 'signature']) {
      const without = header.replace(new RegExp(`(^|,)${field}="[^"]*"`), '');
      expect(without).not.toBe(header);
      expect(draftSignature({ ...request(), headers: { ...request().headers, signature: without } }, now)).toBeNull();
    }
    // A field that is not `name="value"` or `name=digits` is not read (here: the signature).
    const odd = header.replace('signature="c2ln"', 'signature=c2ln');
    expect(draftSignature({ ...request(), headers: { ...request().headers, signature: odd } }, now)).toBeNull();
    // Two Signature headers, or one beside Signature-Input: not the plain case.
    expect(
      draftSignature({ ...request(), headers: { ...request().headers, signature: [header, header] } }, now),
    ).toBeNull();
  });

  it('takes a date up to an hour either way, to the millisecond', () => {
    const hour = 60 * 60 * 1000;
    expect(draftSignature(request(), now + hour)).not.toBeNull();
    expect(draftSignature(request(), now - hour)).not.toBeNull();
    expect(draftSignature(request(), now + hour + 1)).toBeNull();
    expect(draftSignature(request(), now - hour - 1)).toBeNull();
    expect(draftSignature(request({ headers: { date: 'yesterday' } }), now)).toBeNull();
    expect(draftSignature(request({ headers: { date: undefined } }), now)).toBeNull();
  });

  it("needs the body's SHA-256 digest, in any case, and nothing else in the header", () => {
    const sum = digest.slice('SHA-256='.length);
    expect(draftSignature(request({ headers: { digest: `sha-256=${sum}` } }), now)).not.toBeNull();
    expect(draftSignature(request({ headers: { digest: ` SHA-256=${sum} ` } }), now)).not.toBeNull();
    for (const other of [
      `SHA-512=${sum}`,
      `SHA-256=${sum}, SHA-512=${sum}`,
      `xSHA-256=${sum}`,
      `SHA-256=${sum.slice(0, 20)}`,
      `SHA-256=${createHash('sha256').update('other').digest('base64')}`,
      'SHA-256=',
    ])
      expect(draftSignature(request({ headers: { digest: other } }), now), other).toBeNull();
    expect(draftSignature(request({ headers: { digest: undefined } }), now)).toBeNull();
  });
});
