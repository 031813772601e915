/**
 * A deleted local account (issue 32, items 3 and 6): its followers elsewhere are sent
 * `Delete(Person)`, signed with the account's key (read before the rows went), and from then on its
 * actor URI answers 410 with a `Tombstone`, as does WebFinger for its name until someone takes it
 * again. An account nobody elsewhere follows is buried too; a suspended one still answers 410.
 *
 * The other way round: a person elsewhere whose account is deleted sends `Delete(Person)` with a
 * key that can no longer be fetched; once their actor answers 410 here too they are removed, with
 * their follows, likes and comments taken off the counts (202), and anything else stays 401.
 */
import { verifyRequest } from '@fedify/fedify';
import type { RemoteDocument } from '@fedify/vocab-runtime';
import { usernameKey } from '../../lib/validation';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { type RemoteServer, freePort, startRemoteServer, until } from './remoteServer';

const AP = { accept: 'application/activity+json' };

let t: TestApp;
let local: string;
let remote: RemoteServer;

beforeAll(async () => {
  remote = await startRemoteServer(['zoe', 'yan', 'uma', 'vic']);
  const port = await freePort();
  local = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true' });
  await t.app.listen({ host: '127.0.0.1', port });
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

const deleteAccount = (user: SignedInUser) =>
  t.app.inject({ method: 'DELETE', url: '/api/users/me', headers: user.headers, payload: { password: user.password } });
const webfinger = (name: string) =>
  fetch(`${local}/.well-known/webfinger?resource=acct:${name}@${new URL(local).host}`);

describe('a deleted account', () => {
  it('sends Delete(Person) to its followers elsewhere, signed with its key, then answers 410 Tombstone', async () => {
    const ann = await signIn(t.app, { username: 'ann' });
    const annUri = `${local}/users/${ann.id}`;
    const followed = await remote.signedPost('zoe', `${annUri}/inbox`, {
      id: `${remote.origin}/follows/1`,
      type: 'Follow',
      actor: remote.actorUri('zoe'),
      object: annUri,
    });
    expect(followed.status).toBe(202);
    await until(async () => (await t.db.kysely.selectFrom('federation_followers').selectAll().execute()).length === 1);
    // What zoe's server knew of ann before: her actor with its public key.
    const annActor = (await (await fetch(annUri, { headers: AP })).json()) as Record<string, unknown>;

    expect((await deleteAccount(ann)).statusCode).toBe(200);

    const farewell = await until(() =>
      remote.requests.find((r) => r.method === 'POST' && (JSON.parse(r.body) as { type: string }).type === 'Delete'),
    );
    const activity = JSON.parse(farewell.body) as { actor: string; object: string; to: unknown };
    expect(activity.actor).toBe(annUri);
    expect(activity.object).toBe(annUri);
    expect([activity.to].flat()).toContain('https://www.w3.org/ns/activitystreams#Public');
    // Signed with ann's key: checked against the actor as it was before the deletion.
    const known = async (url: string): Promise<RemoteDocument> => {
      if (url.split('#')[0] !== annUri) throw new Error(`not known here: ${url}`);
      return { contextUrl: null, document: annActor, documentUrl: url };
    };
    const key = await verifyRequest(
      new Request(`${remote.origin}${farewell.path}`, {
        method: 'POST',
        headers: farewell.headers,
        body: farewell.body,
      }),
      { documentLoader: known, contextLoader: undefined },
    );
    expect(key?.ownerId?.href).toBe(annUri);

    const gone = await fetch(annUri, { headers: AP });
    expect(gone.status).toBe(410);
    expect(await gone.json()).toMatchObject({ type: 'Tombstone', id: annUri });
    expect((await webfinger('ann')).status).toBe(410);
    expect(await t.db.kysely.selectFrom('federation_followers').selectAll().execute()).toEqual([]);
  });

  it('is buried without followers elsewhere; its name, taken again, is the new person', async () => {
    const bob = await signIn(t.app, { username: 'bobby' });
    const bobUri = `${local}/users/${bob.id}`;
    expect((await fetch(bobUri, { headers: AP })).status).toBe(200);
    expect((await deleteAccount(bob)).statusCode).toBe(200);
    expect((await fetch(bobUri, { headers: AP })).status).toBe(410);
    expect((await webfinger('bobby')).status).toBe(410);

    // Once the name is free again (its hold ended), WebFinger finds whoever took it.
    await t.db.kysely.deleteFrom('retired_usernames').where('username_lower', '=', usernameKey('bobby')).execute();
    const again = await signIn(t.app, { username: 'bobby' });
    const finger = await webfinger('bobby');
    expect(finger.status).toBe(200);
    expect(JSON.stringify(await finger.json())).toContain(`/users/${again.id}`);
    expect((await fetch(bobUri, { headers: AP })).status).toBe(410);
  });

  it('an unknown actor is still 404, not 410', async () => {
    expect((await fetch(`${local}/users/0190a0a0-0000-7000-8000-000000000000`, { headers: AP })).status).toBe(404);
  });
});

describe('a person elsewhere whose account was deleted', () => {
  const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
  const personRow = (actorUri: string) =>
    t.db.kysely.selectFrom('users').select(['id']).where('actor_uri', '=', actorUri).executeTakeFirst();
  const postRow = (id: string) =>
    t.db.kysely
      .selectFrom('posts')
      .select(['likes_count', 'comments_count'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const followersOf = async (user: SignedInUser) =>
    (await t.app.inject({ method: 'GET', url: `/api/users/${user.username}`, headers: user.headers })).json().user
      .followersCount as number;
  /** What this instance kept of the actor (its key, its document): as if it had never been fetched. */
  const forgetFetched = (actorUri: string) =>
    t.db.kysely.deleteFrom('federation_kv').where('key', 'like', `%${actorUri}%`).execute();

  it('is removed when their Delete(Person) cannot be verified and their actor answers 410', async () => {
    const dee = await signIn(t.app, { username: 'dee' });
    const deeUri = `${local}/users/${dee.id}`;
    const yan = remote.actorUri('yan');
    const post = await createPost(t.app, dee, { message: 'Seen from afar' });
    const postUri = `${local}/post/${post._id}`;
    const sent = [
      await remote.signedPost('yan', `${deeUri}/inbox`, {
        id: `${remote.origin}/follows/yan`,
        type: 'Follow',
        actor: yan,
        object: deeUri,
      }),
      await remote.signedPost('yan', `${local}/inbox`, {
        id: `${remote.origin}/likes/yan`,
        type: 'Like',
        actor: yan,
        object: postUri,
      }),
      await remote.signedPost('yan', `${local}/inbox`, {
        id: `${remote.origin}/creates/yan`,
        type: 'Create',
        actor: yan,
        to: PUBLIC,
        object: {
          id: `${remote.origin}/notes/yan`,
          type: 'Note',
          attributedTo: yan,
          content: '<p>Lovely</p>',
          inReplyTo: postUri,
          to: PUBLIC,
        },
      }),
    ];
    expect(sent.map((r) => r.status)).toEqual([202, 202, 202]);
    await until(async () => {
      const row = await postRow(post._id);
      return row.likes_count === 1 && row.comments_count === 1 && (await followersOf(dee)) === 1;
    });
    expect(await personRow(yan)).toBeDefined();

    remote.bury('yan');
    await forgetFetched(yan);
    // Signed with a key this instance never kept (the one it kept stays in memory for minutes): the
    // signature cannot be checked, the key's actor answers 410.
    const deleted = await remote.signedPost(
      'yan',
      `${local}/inbox`,
      { id: `${yan}#delete`, type: 'Delete', actor: yan, object: yan, to: PUBLIC },
      `${yan}#farewell-key`,
    );
    expect(deleted.status).toBe(202);
    expect(await personRow(yan)).toBeUndefined();
    expect(await postRow(post._id)).toEqual({ likes_count: 0, comments_count: 0 });
    expect(await followersOf(dee)).toBe(0);
    const comments = await t.app.inject({
      method: 'GET',
      url: `/api/posts/${post._id}/comments`,
      headers: dee.headers,
    });
    expect(comments.json()).toEqual([]);
    expect(
      await t.db.kysely.selectFrom('federation_followers').selectAll().where('actor_uri', '=', yan).execute(),
    ).toEqual([]);
  });

  it('stays 401 while the actor still answers, or when the Delete names someone else', async () => {
    const uma = remote.actorUri('uma');
    const eve = await signIn(t.app, { username: 'eve' });
    const eveUri = `${local}/users/${eve.id}`;
    expect(
      (
        await remote.signedPost('uma', `${eveUri}/inbox`, {
          id: `${remote.origin}/follows/uma`,
          type: 'Follow',
          actor: uma,
          object: eveUri,
        })
      ).status,
    ).toBe(202);
    await until(async () => (await followersOf(eve)) === 1);
    await forgetFetched(uma);

    // A key that cannot be fetched (404), but uma's actor is there: not believed.
    const unfetchable = await remote.signedPost(
      'uma',
      `${local}/inbox`,
      { id: `${uma}#delete`, type: 'Delete', actor: uma, object: uma, to: PUBLIC },
      `${uma}/no-such-key`,
    );
    expect(unfetchable.status).toBe(401);
    expect(await personRow(uma)).toBeDefined();

    // Gone, but deleting another person: not what a deleted account sends.
    remote.bury('uma');
    const other = await remote.signedPost(
      'uma',
      `${local}/inbox`,
      { id: `${uma}#delete-other`, type: 'Delete', actor: uma, object: remote.actorUri('zoe'), to: PUBLIC },
      `${uma}#farewell-key`,
    );
    expect(other.status).toBe(401);
    expect(await personRow(uma)).toBeDefined();
    expect(await followersOf(eve)).toBe(1);
  });

  it('is kept when their actor answers 404, not 410 (issue 68, item 37: a 404 may be a misconfiguration)', async () => {
    const vic = remote.actorUri('vic');
    const gil = await signIn(t.app, { username: 'gil' });
    const gilUri = `${local}/users/${gil.id}`;
    const followed = await remote.signedPost('vic', `${gilUri}/inbox`, {
      id: `${remote.origin}/follows/vic`,
      type: 'Follow',
      actor: vic,
      object: gilUri,
    });
    expect(followed.status).toBe(202);
    await until(async () => (await followersOf(gil)) === 1);
    await forgetFetched(vic);

    remote.vanish('vic');
    const deleted = await remote.signedPost(
      'vic',
      `${local}/inbox`,
      { id: `${vic}#delete`, type: 'Delete', actor: vic, object: vic, to: PUBLIC },
      `${vic}#farewell-key`,
    );
    expect(deleted.status).toBe(401);
    expect(await personRow(vic)).toBeDefined();
    expect(await followersOf(gil)).toBe(1);
  });
});

describe('a deleted account, between two instances', () => {
  let b: TestApp;
  let hostB: string;
  beforeAll(async () => {
    const port = await freePort();
    hostB = `127.0.0.1:${port}`;
    b = await createTestApp({ PUBLIC_URL: `http://${hostB}`, FEDERATION_ALLOW_PRIVATE: 'true' });
    await b.app.listen({ host: '127.0.0.1', port });
  });
  afterAll(() => b?.close());

  const call = (app: TestApp, user: SignedInUser, method: 'GET' | 'PATCH', url: string) =>
    app.app.inject({ method, url, headers: user.headers });
  const counts = async (user: SignedInUser) =>
    (await call(t, user, 'GET', `/api/users/${user.username}`)).json().user as {
      followersCount: number;
      followingCount: number;
    };

  it("B's deleted person disappears from A: their posts leave A's feeds, the follow counts follow", async () => {
    const fay = await signIn(t.app, { username: 'fay' });
    const bea = await signIn(b.app, { username: 'bea' });
    const beaThere = `bea@${hostB}`;
    const fayThere = `fay@${new URL(local).host}`;

    // Fay follows Bea (found by her handle) and Bea follows Fay back.
    const found = await call(t, fay, 'GET', `/api/users/search?q=${encodeURIComponent(`@${beaThere}`)}`);
    expect(found.statusCode, found.body).toBe(200);
    expect((await call(t, fay, 'PATCH', `/api/users/${encodeURIComponent(beaThere)}/follow`)).statusCode).toBe(200);
    expect((await call(b, bea, 'GET', `/api/users/search?q=${encodeURIComponent(`@${fayThere}`)}`)).statusCode).toBe(
      200,
    );
    expect((await call(b, bea, 'PATCH', `/api/users/${encodeURIComponent(fayThere)}/follow`)).statusCode).toBe(200);
    await until(async () => (await counts(fay)).followersCount === 1);
    // Her post reaches Fay's home feed.
    await until(
      async () => (await b.db.kysely.selectFrom('federation_followers').select('id').executeTakeFirst()) !== undefined,
    );
    await createPost(b.app, bea, { message: 'Bea was here', tags: ['bea'] });
    const kept = await until(() =>
      t.db.kysely.selectFrom('posts').select('id').where('message', '=', 'Bea was here').executeTakeFirst(),
    );
    const homeIds = async () =>
      ((await call(t, fay, 'GET', '/api/posts')).json() as { _id: string }[]).map((p) => p._id);
    await until(async () => (await homeIds()).includes(kept.id));
    expect(await counts(fay)).toMatchObject({ followersCount: 1, followingCount: 1 });

    const removed = await b.app.inject({
      method: 'DELETE',
      url: '/api/users/me',
      headers: bea.headers,
      payload: { password: bea.password },
    });
    expect(removed.statusCode).toBe(200);

    await until(
      async () =>
        (await t.db.kysely.selectFrom('users').select('id').where('username', '=', beaThere).executeTakeFirst()) ===
        undefined,
    );
    expect(await homeIds()).not.toContain(kept.id);
    const tagged = (await call(t, fay, 'GET', '/api/posts/tagged?tags=bea')).json() as { _id: string }[];
    expect(tagged).toEqual([]);
    expect((await call(t, fay, 'GET', `/api/posts/${kept.id}`)).statusCode).toBe(404);
    expect(await counts(fay)).toMatchObject({ followersCount: 0, followingCount: 0 });
    expect((await call(t, fay, 'GET', `/api/users/${encodeURIComponent(beaThere)}`)).statusCode).toBe(404);
  }, 60_000);
});
