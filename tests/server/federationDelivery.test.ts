/**
 * Federation over real HTTP (issue 32): a Posts instance listening on loopback and a second
 * ActivityPub server beside it, built with Fedify in this test (its person `zoe`). Zoe follows a
 * local person (her signed Follow is checked, kept, and accepted through the queue), receives their
 * new, edited and deleted posts and their comments, and unfollows; signatures that do not hold are
 * refused with 401. Waits are for things to arrive, never for a time.
 * Zoe also hears of deleted comments and of the person's profile changes (`Update(Person)`).
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryKvStore, createFederation, generateCryptoKeyPair, signRequest } from '@fedify/fedify';
import { Accept, Activity, Create, Delete, Endpoints, Follow, Note, Person, Undo, Update } from '@fedify/vocab';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { blurhashOfThumbhash } from '../../server/media/blurhash';

const AP = { accept: 'application/activity+json' };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Resolves once `check` holds (each look after a short pause); the test's own timeout bounds it. */
async function until<T>(check: () => T | Promise<T>): Promise<NonNullable<T>> {
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let t: TestApp;
let local: string;
let remote: string;
let server: Server;
let ann: SignedInUser;
/** What zoe's inbox received: the parsed activity and the JSON as sent. */
const received: { activity: Activity; json: Record<string, unknown> }[] = [];
const zoeKeys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
const yanKeys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
const rawBodies = new Map<string, string>();

const elsewhere = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true });
elsewhere
  .setActorDispatcher('/actors/{identifier}', async (ctx, identifier) => {
    if (identifier !== 'zoe' && identifier !== 'yan') return null;
    const [key] = await ctx.getActorKeyPairs(identifier);
    return new Person({
      id: ctx.getActorUri(identifier),
      preferredUsername: identifier,
      inbox: ctx.getInboxUri(identifier),
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      publicKey: key.cryptographicKey,
    });
  })
  .setKeyPairsDispatcher((_ctx, identifier) => [identifier === 'zoe' ? zoeKeys : yanKeys]);
elsewhere.setInboxListeners('/actors/{identifier}/inbox', '/inbox').on(Activity, async (_ctx, activity) => {
  const raw = rawBodies.get(activity.id!.href);
  received.push({ activity, json: raw ? JSON.parse(raw) : {} });
});

beforeAll(async () => {
  const [localPort, remotePort] = [await freePort(), await freePort()];
  local = `http://127.0.0.1:${localPort}`;
  remote = `http://127.0.0.1:${remotePort}`;
  server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const body = await bodyOf(req);
    if (req.method === 'POST') {
      try {
        rawBodies.set((JSON.parse(body.toString()) as { id: string }).id, body.toString());
      } catch {
        // not JSON: Fedify answers it
      }
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const response = await elsewhere.fetch(
      new Request(new URL(req.url!, remote), {
        method: req.method,
        headers,
        body: req.method === 'POST' ? new Uint8Array(body) : undefined,
      }),
      { contextData: undefined },
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(remotePort, '127.0.0.1', resolve));
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true' });
  await t.app.listen({ host: '127.0.0.1', port: localPort });
  ann = await signIn(t.app, { username: 'ann' });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});

const zoe = () => elsewhere.createContext(new URL(remote), undefined);
const zoeUri = () => `${remote}/actors/zoe`;
const annUri = () => `${local}/users/${ann.id}`;

const arrived = <T extends Activity>(Kind: new (...args: never[]) => T, objectId?: string) =>
  until(() =>
    received.find(
      (r) => r.activity instanceof Kind && (objectId === undefined || r.activity.objectId?.href === objectId),
    ),
  );

describe('following across servers', () => {
  it('serves actors and WebFinger over HTTP', async () => {
    const finger = await fetch(`${local}/.well-known/webfinger?resource=acct:ann@127.0.0.1:${new URL(local).port}`);
    expect(finger.status).toBe(200);
    const actor = await fetch(`${local}/profile/ann`, { headers: AP });
    expect(actor.headers.get('content-type')).toMatch(/^application\/activity\+json/);
    expect(((await actor.json()) as { id: string }).id).toBe(annUri());
  });

  it("keeps a signed Follow, accepts it through the queue, and sends the person's posts and comments", async () => {
    const annActor = (await zoe().lookupObject(annUri())) as Person;
    expect(annActor).toBeInstanceOf(Person);
    const follow = new Follow({ id: new URL(`${remote}/follows/1`), actor: new URL(zoeUri()), object: annActor.id });
    await zoe().sendActivity({ identifier: 'zoe' }, annActor, follow);
    const accept = await arrived(Accept);
    expect(accept.activity.actorId?.href).toBe(annUri());
    expect(accept.activity.objectId?.href).toBe(`${remote}/follows/1`);
    const rows = await t.db.kysely.selectFrom('federation_followers').selectAll().execute();
    expect(rows).toEqual([
      expect.objectContaining({ user_id: ann.id, actor_uri: zoeUri(), follow_id: `${remote}/follows/1` }),
    ]);

    // Zoe is in ann's followers, counted with the followers here.
    const followers = (await (await fetch(`${annUri()}/followers`, { headers: AP })).json()) as {
      totalItems: number;
      first: string;
    };
    expect(followers.totalItems).toBe(1);
    const firstPage = (await (await fetch(followers.first, { headers: AP })).json()) as { next?: string };
    const remotePage = (await (await fetch(firstPage.next!, { headers: AP })).json()) as { orderedItems: unknown };
    expect([remotePage.orderedItems].flat()).toEqual([zoeUri()]);

    const post = await createPost(t.app, ann, { message: 'Hello fediverse', tags: ['Sun'] });
    const postUri = `${local}/post/${post._id}`;
    const create = await arrived(Create, postUri);
    expect(create.activity.actorId?.href).toBe(annUri());
    const note = (await (create.activity as Create).getObject()) as Note;
    expect(note.content).toContain('Hello fediverse');
    expect(Array.isArray((create.json.object as { attachment: unknown }).attachment)).toBe(true);
    // The image's blurhash travels too (signed with the rest: zoe's server took it).
    const { thumbhash } = await t.db.kysely
      .selectFrom('media')
      .select('thumbhash')
      .where('owner_id', '=', ann.id)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect((create.json.object as { attachment: { blurhash?: string }[] }).attachment[0].blurhash).toBe(
      blurhashOfThumbhash(thumbhash),
    );

    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/posts/${post._id}/manage`,
      headers: ann.headers,
      payload: { post: { message: 'Hello again' } },
    });
    expect(edit.statusCode).toBe(200);
    const edited = await arrived(Update, postUri);
    expect(((await (edited.activity as Update).getObject()) as Note).content).toContain('Hello again');
    expect(Array.isArray((edited.json.object as { attachment: unknown }).attachment)).toBe(true);

    const comment = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${post._id}/comments`,
      headers: ann.headers,
      payload: { message: 'and a comment' },
    });
    const commentUri = `${local}/comments/${comment.json().commentId}`;
    const reply = (await (await arrived(Create, commentUri)).activity.getObject()) as Note;
    expect(reply.replyTargetId?.href).toBe(postUri);

    await t.app.inject({
      method: 'DELETE',
      url: `/api/posts/${post._id}/comments/${comment.json().commentId}`,
      headers: ann.headers,
    });
    await arrived(Delete, commentUri);

    await t.app.inject({ method: 'DELETE', url: `/api/posts/${post._id}/manage`, headers: ann.headers });
    await arrived(Delete, postUri);

    const profile = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/updateProfile',
      headers: ann.headers,
      payload: { description: 'Now with a description' },
    });
    expect(profile.statusCode, profile.body).toBe(200);
    const update = await arrived(Update, annUri());
    const person = (await (update.activity as Update).getObject()) as Person;
    expect(person.summary?.toString()).toBe('<p>Now with a description</p>');
  });

  it('ends the follow on Undo(Follow)', async () => {
    const annActor = (await zoe().lookupObject(annUri())) as Person;
    const undo = new Undo({
      id: new URL(`${remote}/follows/1#undo`),
      actor: new URL(zoeUri()),
      object: new Follow({ id: new URL(`${remote}/follows/1`), actor: new URL(zoeUri()), object: annActor.id }),
    });
    await zoe().sendActivity({ identifier: 'zoe' }, annActor, undo);
    await until(async () => (await t.db.kysely.selectFrom('federation_followers').selectAll().execute()).length === 0);
  });
});

describe('the inbox refuses signatures that do not hold', () => {
  const followJson = (actor: string, id: string) =>
    JSON.stringify({
      '@context': 'https://www.w3.org/ns/activitystreams',
      id,
      type: 'Follow',
      actor,
      object: annUri(),
    });

  async function signed(body: string, key: CryptoKey, keyId: string): Promise<Request> {
    return signRequest(
      new Request(`${local}/users/${ann.id}/inbox`, {
        method: 'POST',
        headers: { 'content-type': 'application/activity+json' },
        body,
      }),
      key,
      new URL(keyId),
    );
  }

  it('a body changed after signing: 401', async () => {
    const request = await signed(
      followJson(zoeUri(), `${remote}/follows/2`),
      zoeKeys.privateKey,
      `${zoeUri()}#main-key`,
    );
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: followJson(zoeUri(), `${remote}/follows/3`),
    });
    expect(response.status).toBe(401);
  });

  it("an activity signed with another actor's key: 401", async () => {
    const request = await signed(
      followJson(zoeUri(), `${remote}/follows/4`),
      yanKeys.privateKey,
      `${remote}/actors/yan#main-key`,
    );
    const response = await fetch(request);
    expect(response.status).toBe(401);
  });

  it('a replayed activity (the same id, signed again): 202, and not done again', async () => {
    const post = await createPost(t.app, ann, { message: 'Like me once' });
    const likes = async () =>
      (await t.db.kysely.selectFrom('posts').select('likes_count').where('id', '=', post._id).executeTakeFirstOrThrow())
        .likes_count;
    const send = async (activity: Record<string, unknown>, as = 'zoe', keys = zoeKeys) => {
      const body = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', ...activity });
      return (await fetch(await signed(body, keys.privateKey, `${remote}/actors/${as}#main-key`))).status;
    };
    const like = { id: `${remote}/likes/once`, type: 'Like', actor: zoeUri(), object: `${local}/post/${post._id}` };
    expect(await send(like)).toBe(202);
    await until(async () => (await likes()) === 1);
    expect(await send({ id: `${remote}/likes/once#undo`, type: 'Undo', actor: zoeUri(), object: like })).toBe(202);
    await until(async () => (await likes()) === 0);
    // The same Like again: Fedify's record of its id refuses it (else zoe's like would count again).
    expect(await send(like)).toBe(202);
    // Yan's like, sent after it, is the only one counted.
    const yanLike = { id: `${remote}/likes/yan`, type: 'Like', actor: `${remote}/actors/yan`, object: like.object };
    expect(await send(yanLike, 'yan', yanKeys)).toBe(202);
    await until(async () => (await likes()) >= 1);
    const likers = await t.db.kysely
      .selectFrom('post_reactions')
      .innerJoin('users', 'users.id', 'post_reactions.user_id')
      .select('users.actor_uri')
      .where('post_reactions.post_id', '=', post._id)
      .execute();
    expect(likers).toEqual([{ actor_uri: `${remote}/actors/yan` }]);
  });

  it('a good signature: accepted (202)', async () => {
    const request = await signed(
      followJson(zoeUri(), `${remote}/follows/5`),
      zoeKeys.privateKey,
      `${zoeUri()}#main-key`,
    );
    const response = await fetch(request);
    expect(response.status).toBe(202);
  });
});
