/**
 * Moving an account between two Posts instances over real HTTP (issue 76, items 3 and 4). Ann on A
 * moves to Bob on B. Cat on A follows Ann (a follower here: carried over by A, which sends B a
 * Follow), Dee on B follows Ann (a follower elsewhere: B takes A's `Move` and has Dee follow Bob).
 * A `Move` whose target does not name the old account is ignored; a move before the alias is
 * refused with why. Every wait is for something to arrive, never for a time.
 */
import { createPost } from './factories';
import { federatedInstance } from './federatedInstance';
import { until } from './remoteServer';
import { type SignedInUser, type TestApp, signIn } from './helpers';

const WAIT = 60_000;

let a: TestApp;
let b: TestApp;
let hostA: string;
let hostB: string;
let ann: SignedInUser;
let cat: SignedInUser;
let bob: SignedInUser;
let dee: SignedInUser;

beforeAll(async () => {
  ({ t: a, host: hostA } = await federatedInstance());
  ({ t: b, host: hostB } = await federatedInstance());
  ann = await signIn(a.app, { username: 'ann' });
  cat = await signIn(a.app, { username: 'cat' });
  bob = await signIn(b.app, { username: 'bob' });
  dee = await signIn(b.app, { username: 'dee' });
}, WAIT);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const call = (
  t: TestApp,
  user: SignedInUser,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: user.headers, payload });

const annActor = () => `http://${hostA}/users/${ann.id}`;
const bobActor = () => `http://${hostB}/users/${bob.id}`;

async function profile(t: TestApp, viewer: SignedInUser, username: string) {
  const res = await call(t, viewer, 'GET', `/api/users/${encodeURIComponent(username)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().user as { followersCount: number; followedByMe: boolean; movedTo?: { username: string } };
}

async function actorDocument(t: TestApp, id: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/users/${id}`,
    headers: { accept: 'application/activity+json' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, unknown>;
}

const queueEmpty = async (t: TestApp) =>
  (await t.db.kysely.selectFrom('federation_queue').select('id').executeTakeFirst()) === undefined;

describe('moving an account from one instance to the other', () => {
  it(
    'Cat (on A) and Dee (on B) follow Ann',
    async () => {
      expect((await call(a, cat, 'PATCH', '/api/users/ann/follow')).statusCode).toBe(200);
      const found = await call(b, dee, 'GET', `/api/users/search?q=${encodeURIComponent(`@ann@${hostA}`)}`);
      expect(found.statusCode, found.body).toBe(200);
      expect((await call(b, dee, 'PATCH', `/api/users/${encodeURIComponent(`ann@${hostA}`)}/follow`)).statusCode).toBe(
        200,
      );
      await until(async () => (await profile(a, ann, 'ann')).followersCount === 2);
    },
    WAIT,
  );

  it(
    'a Move whose target does not name Ann among its aliases is ignored on B',
    async () => {
      // A misbehaving server's Move (A's own sending, without its check): B fetches Bob, who names nobody.
      await a.app.ctx.federation!.sendMove(ann.id, bobActor());
      await until(() => queueEmpty(a));
      expect((await profile(b, dee, `ann@${hostA}`)).movedTo).toBeUndefined();
      expect(await profile(b, dee, `ann@${hostA}`)).toMatchObject({ followedByMe: true });
      expect((await profile(b, dee, 'bob')).followersCount).toBe(0);
    },
    WAIT,
  );

  it(
    'refuses the move while Bob does not name Ann, with why',
    async () => {
      const res = await call(a, ann, 'POST', '/api/users/me/move', { address: `bob@${hostB}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'AliasMissing',
        message: `@bob@${hostB} does not name this account as an alias: add @ann@${hostA} to its aliases first (Settings, Move in and out, on that account)`,
      });
      const nobody = await call(a, ann, 'POST', '/api/users/me/move', { address: `nobody@${hostB}` });
      expect(nobody.statusCode).toBe(404);
      expect(nobody.json()).toMatchObject({ code: 'AccountNotFound' });
      const self = await call(a, ann, 'POST', '/api/users/me/move', { address: 'ann' });
      expect(self.json()).toMatchObject({ code: 'InvalidMove' });
    },
    WAIT,
  );

  it(
    'Bob names Ann as an alias (her address, found through WebFinger): his actor lists her in alsoKnownAs',
    async () => {
      const res = await call(b, bob, 'POST', '/api/users/me/aliases', { address: `@ann@${hostA}` });
      expect(res.statusCode, res.body).toBe(200);
      const aliases = [{ uri: annActor(), address: `ann@${hostA}` }];
      expect(res.json()).toEqual({ aliases });
      expect((await call(b, bob, 'GET', '/api/users/me/aliases')).json()).toEqual({ aliases });
      expect((await actorDocument(b, bob.id)).alsoKnownAs).toBe(annActor());
      // Twice is once.
      expect((await call(b, bob, 'POST', '/api/users/me/aliases', { address: annActor() })).json()).toEqual({
        aliases,
      });
    },
    WAIT,
  );

  it(
    'Ann moves to Bob: movedTo on her actor and profile, her followers on both instances follow Bob',
    async () => {
      const res = await call(a, ann, 'POST', '/api/users/me/move', { address: `bob@${hostB}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().movedTo).toMatchObject({ username: `bob@${hostB}` });
      expect((await actorDocument(a, ann.id)).movedTo).toBe(bobActor());
      expect((await profile(a, cat, 'ann')).movedTo).toMatchObject({ username: `bob@${hostB}` });
      // Cat (on A) follows Bob now, and no longer Ann; B counts her (A sent the Follow).
      expect(await profile(a, cat, `bob@${hostB}`)).toMatchObject({ followedByMe: true });
      expect(await profile(a, cat, 'ann')).toMatchObject({ followedByMe: false });
      // Dee (on B) followed Ann from elsewhere: B took the Move.
      await until(async () => (await profile(b, dee, 'bob')).followedByMe);
      await until(async () => (await profile(b, dee, 'bob')).followersCount === 2);
      expect(await profile(b, dee, `ann@${hostA}`)).toMatchObject({
        followedByMe: false,
        movedTo: { username: 'bob' },
      });
      const again = await call(a, ann, 'POST', '/api/users/me/move', { address: `bob@${hostB}` });
      expect(again.statusCode).toBe(409);
    },
    WAIT,
  );

  it('the moved account takes no new posts (403, with why)', async () => {
    await expect(createPost(a.app, ann, { message: 'Still here?' })).rejects.toThrow(
      `This account has moved to @bob@${hostB}: it takes no new posts`,
    );
    const account = await call(a, ann, 'GET', '/api/auth/getLoggedUser');
    expect(account.json().movedTo).toMatchObject({ username: `bob@${hostB}` });
  });
});
