/**
 * The inbox reads nothing as JSON-LD before the request's signature holds (issue 68, item 33): an
 * unsigned request, or one whose signature fails, is refused without a context it names being
 * fetched; a body past the JSON-LD bounds (too many context terms, scoped contexts, nesting) is
 * refused with the reason, signed or not; a document fetched for a key is bounded the same way.
 * What servers really send (Mastodon's and Misskey's inline contexts) still passes.
 */
import { guardedDocumentLoader } from '../../server/outgoing/outgoingGuard';
import { payloads } from './fediversePayloads';
import { MAX_CONTEXT_TERMS, MAX_JSON_DEPTH, jsonLdProblem } from '../../server/outgoing/jsonLdBounds';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { type RemoteServer, freePort, startRemoteServer, until } from './remoteServer';

const CONTEXT_PATH = '/ns/extra.jsonld';
const LARGE_ACTOR_PATH = '/actors/large.json';

let t: TestApp;
let local: string;
let remote: RemoteServer;
let ann: SignedInUser;

/** An inline context of `n` plain terms, or of `n` terms each with a scoped context. */
const terms = (n: number, scoped = false) =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [
      `t${i}`,
      scoped
        ? { '@id': `https://x.example/ns#t${i}`, '@context': { [`u${i}`]: 'https://y.example/' } }
        : `https://x.example/ns#t${i}`,
    ]),
  );

beforeAll(async () => {
  remote = await startRemoteServer(['zoe'], {
    files: {
      [CONTEXT_PATH]: {
        type: 'application/ld+json',
        body: Buffer.from(JSON.stringify({ '@context': { x: 'https://x.example/' } })),
      },
    },
  });
  const port = await freePort();
  local = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true' });
  await t.app.listen({ host: '127.0.0.1', port });
  ann = await signIn(t.app, { username: 'ann' });
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

const like = (
  id: string,
  context: unknown = ['https://www.w3.org/ns/activitystreams', `${remote.origin}${CONTEXT_PATH}`],
) => ({
  '@context': context,
  id: `${remote.origin}/likes/${id}`,
  type: 'Like',
  actor: remote.actorUri('zoe'),
  object: `${local}/users/${ann.id}`,
});

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${local}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/activity+json', ...headers },
    body,
  });

const contextFetches = () => remote.requests.filter((r) => r.path === CONTEXT_PATH).length;

describe('an inbox request whose signature does not hold', () => {
  it('unsigned: 401 SignatureRequired, and the context it names is never fetched', async () => {
    for (const path of ['/inbox', `/users/${ann.id}/inbox`]) {
      const response = await post(path, JSON.stringify(like(`unsigned${path.length}`)));
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'SignatureRequired' });
    }
    expect(contextFetches()).toBe(0);
  });

  it('signed, but the body changed after signing: 401 InvalidSignature, the context never fetched', async () => {
    const request = await remote.signedRequest('zoe', `${local}/inbox`, like('signed-once'));
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: JSON.stringify(like('changed')),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'InvalidSignature' });
    expect(contextFetches()).toBe(0);
  });

  it('a garbage Signature header: 401, the context never fetched', async () => {
    const response = await post('/inbox', JSON.stringify(like('garbage')), {
      signature: `keyId="${remote.actorUri('zoe')}#main-key",headers="(request-target) host date",signature="AAAA"`,
      date: new Date().toUTCString(),
    });
    expect(response.status).toBe(401);
    expect(contextFetches()).toBe(0);
  });

  it('signed with a good signature: accepted, and only then is its context read', async () => {
    const response = await remote.signedPost('zoe', `${local}/inbox`, like('good'));
    expect(response.status).toBe(202);
    await until(() => contextFetches() === 1);
  });
});

describe('an inbox body past the JSON-LD bounds: 400 with the reason, signed or not', () => {
  const cases: [string, unknown][] = [
    ['more context terms than the bound', ['https://www.w3.org/ns/activitystreams', terms(MAX_CONTEXT_TERMS + 1)]],
    ['too many scoped contexts', ['https://www.w3.org/ns/activitystreams', terms(2000, true)]],
    ['a context that is not an http(s) URL', ['https://www.w3.org/ns/activitystreams', 'file:///etc/passwd']],
  ];
  it.each(cases)('%s', async (_name, context) => {
    for (const signed of [false, true]) {
      const activity = like(`bounds-${signed}`, context);
      const response = signed
        ? await remote.signedPost('zoe', `${local}/inbox`, activity)
        : await post('/inbox', JSON.stringify(activity));
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { code: string; message: string };
      expect(answer.code).toBe('InvalidActivity');
      expect(answer.message).toMatch(/^The activity is refused: Its @context /);
    }
  });

  it('nesting deeper than the bound, a body that is not JSON, a JSON array', async () => {
    // Written out: too deep for JSON.stringify itself.
    const deep = `${'['.repeat(5000)}"x"${']'.repeat(5000)}`;
    const answers = await Promise.all(
      [JSON.stringify(like('deep')).replace(/}$/, `,"object":${deep}}`), '{"id": ', '[]'].map(async (body) => {
        const response = await post('/inbox', body);
        return [response.status, ((await response.json()) as { message: string }).message];
      }),
    );
    expect(answers).toEqual([
      [400, `The activity is refused: It is nested deeper than ${MAX_JSON_DEPTH} levels.`],
      [400, 'The body is not JSON.'],
      [400, 'The body is not a JSON object.'],
    ]);
  });
});

describe('a document fetched from elsewhere is bounded as inbox bodies are', () => {
  it("a signer's actor document with a context past the bounds is refused by the loader", async () => {
    const large = await startRemoteServer([], {
      files: {
        [LARGE_ACTOR_PATH]: {
          type: 'application/activity+json',
          body: Buffer.from(
            JSON.stringify({
              '@context': ['https://www.w3.org/ns/activitystreams', terms(2000, true)],
              id: 'https://x.example/actor',
              type: 'Person',
            }),
          ),
        },
      },
    });
    try {
      const load = guardedDocumentLoader({ allowPrivateAddress: true });
      await expect(load(`${large.origin}${LARGE_ACTOR_PATH}`)).rejects.toThrow(/scoped contexts/);
      // The same loader takes an ordinary actor.
      expect((await load(remote.actorUri('zoe'))).document).toMatchObject({ id: remote.actorUri('zoe') });
    } finally {
      await large.close();
    }
  });
});

describe('what servers send stays within the bounds', () => {
  it("Mastodon's actor context and every payload other servers send", () => {
    const mastodon = {
      '@context': [
        'https://www.w3.org/ns/activitystreams',
        'https://w3id.org/security/v1',
        {
          manuallyApprovesFollowers: 'as:manuallyApprovesFollowers',
          toot: 'http://joinmastodon.org/ns#',
          featured: { '@id': 'toot:featured', '@type': '@id' },
          featuredTags: { '@id': 'toot:featuredTags', '@type': '@id' },
          alsoKnownAs: { '@id': 'as:alsoKnownAs', '@type': '@id' },
          movedTo: { '@id': 'as:movedTo', '@type': '@id' },
          schema: 'http://schema.org#',
          PropertyValue: 'schema:PropertyValue',
          value: 'schema:value',
          discoverable: 'toot:discoverable',
          suspended: 'toot:suspended',
          memorial: 'toot:memorial',
          indexable: 'toot:indexable',
          attributionDomains: { '@id': 'toot:attributionDomains', '@type': '@id' },
          focalPoint: { '@container': '@list', '@id': 'toot:focalPoint' },
        },
      ],
      id: 'https://mastodon.example/users/alice',
      type: 'Person',
    };
    expect(jsonLdProblem(mastodon)).toBeNull();
    // Every payload of fediversePayloads.ts (Misskey's, Pixelfed's, Pleroma's... inline contexts).
    const site = {
      origin: 'https://a.example',
      actor: 'https://a.example/u/z',
      localActor: 'https://b.example/users/1',
      localPost: 'https://b.example/post/1',
      image: 'https://a.example/p.png',
    };
    for (const payload of payloads)
      expect([payload.server, jsonLdProblem(payload.activity(site))]).toEqual([payload.server, null]);
    expect(jsonLdProblem({ '@context': terms(MAX_CONTEXT_TERMS) })).toBeNull();
    expect(jsonLdProblem({ '@context': terms(MAX_CONTEXT_TERMS + 1) })).toMatch(/more than 256 terms/);
    // Contexts on nested objects count together.
    const half = terms(MAX_CONTEXT_TERMS / 2 + 1);
    expect(jsonLdProblem({ '@context': half, object: { '@context': half } })).toMatch(/more than 256 terms/);
    expect(jsonLdProblem({ '@context': { '@import': 'javascript:alert(1)' } })).toMatch(/not an http\(s\) URL/);
  });
});
