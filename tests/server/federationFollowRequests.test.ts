/**
 * Approve followers between two Posts instances over real HTTP (issue 70, item 1). Bob on B approves
 * followers: his actor says `manuallyApprovesFollowers`, so A keeps him locked. Ann's follow from A
 * waits ("Requested") until Bob approves it on B and his `Accept` arrives; then his posts reach her.
 * Cat's request is rejected: B sends `Reject`, and A ends it. Bob removes Ann as a follower: B sends
 * `Reject` of her Follow, as Mastodon does, and A ends her follow. Every wait is for an arrival.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once `check` holds (each look after a short pause); the test's own timeout bounds it. */
async function until<T>(check: () => T | Promise<T>): Promise<NonNullable<T>> {
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const WAIT = 60_000;

async function instance(): Promise<{ t: TestApp; host: string }> {
  const port = await freePort();
  const t = await createTestApp(
    {
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      FEDERATION_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: process.env.DEBUG_FED ? 'warn' : 'silent',
    },
    { logStream: process.stderr },
  );
  await t.app.listen({ host: '127.0.0.1', port });
  return { t, host: `127.0.0.1:${port}` };
}

let a: TestApp;
let b: TestApp;
let hostA: string;
let hostB: string;
let ann: SignedInUser;
let cat: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  ({ t: a, host: hostA } = await instance());
  ({ t: b, host: hostB } = await instance());
  ann = await signIn(a.app, { username: 'ann' });
  cat = await signIn(a.app, { username: 'cat' });
  bob = await signIn(b.app, { username: 'bob' });
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
const bobThere = () => `bob@${hostB}`;
const there = (user: SignedInUser) => `${user.username}@${hostA}`;

interface Seen {
  followedByMe: boolean;
  followRequestedByMe: boolean;
  approveFollowers: boolean;
  followersCount: number;
}
async function bobSeenBy(user: SignedInUser): Promise<Seen> {
  const res = await call(a, user, 'GET', `/api/users/${encodeURIComponent(bobThere())}`);
  return res.json().user;
}
const waitingOnB = async () =>
  (await call(b, bob, 'GET', '/api/follow-requests')).json() as { _id: string; username: string }[];

describe('follow requests between two instances', () => {
  it(
    'a remote follow of a locked person waits; approval sends Accept, and posts arrive',
    async () => {
      await call(b, bob, 'PATCH', '/api/users/updateProfile', { approveFollowers: true });
      const found = await call(a, ann, 'GET', `/api/users/search?q=${encodeURIComponent(`@${bobThere()}`)}`);
      expect(found.statusCode, found.body).toBe(200);
      expect((await bobSeenBy(ann)).approveFollowers).toBe(true);

      const asked = await call(a, ann, 'PATCH', `/api/users/${encodeURIComponent(bobThere())}/follow`);
      expect(asked.json().user).toMatchObject({ followedByMe: false, followRequestedByMe: true });
      const [request] = await until(async () => {
        const list = await waitingOnB();
        return list.length === 1 ? list : null;
      });
      expect(request.username).toBe(there(ann));
      // Not a follow yet, on either side.
      expect((await call(b, bob, 'GET', '/api/users/bob')).json().user.followersCount).toBe(0);
      expect(await bobSeenBy(ann)).toMatchObject({ followedByMe: false, followRequestedByMe: true });

      expect((await call(b, bob, 'POST', `/api/follow-requests/${request._id}/approve`)).statusCode).toBe(204);
      expect((await call(b, bob, 'GET', '/api/users/bob')).json().user.followersCount).toBe(1);
      // Bob's Accept arrives: Ann follows him on A.
      await until(async () => (await bobSeenBy(ann)).followedByMe);
      expect((await bobSeenBy(ann)).followRequestedByMe).toBe(false);
      expect((await call(a, ann, 'GET', '/api/users/ann')).json().user.followingCount).toBe(1);

      // Ann is among his followers elsewhere now: his new post reaches her home feed.
      await createPost(b.app, bob, { message: 'For approved eyes', tags: ['locked'] });
      await until(async () => {
        const home = (await call(a, ann, 'GET', '/api/posts?feed=following')).json() as { message: string }[];
        return home.some((p) => p.message === 'For approved eyes');
      });
    },
    WAIT,
  );

  it(
    'a followers-only post reaches the approved follower only, keeps its audience there, and is no one’s to fetch (issue 70)',
    async () => {
      const quiet = await createPost(b.app, bob, { message: 'Only my followers', tags: ['hush'] });
      const made = await call(b, bob, 'PATCH', `/api/posts/${quiet._id}/manage`, { post: { audience: 'followers' } });
      expect(made.json().audience).toBe('followers');
      // An edit reaches the followers as an Update; a new followers-only post as a Create.
      const fresh = await b.app.inject({
        method: 'POST',
        url: '/api/posts/create',
        headers: bob.headers,
        payload: { message: 'Fresh for followers', tags: ['hush'], image: quiet.image, audience: 'followers' },
      });
      expect(fresh.statusCode, fresh.body).toBe(201);
      const kept = await until(async () => {
        const home = (await call(a, ann, 'GET', '/api/posts?feed=following')).json() as {
          _id: string;
          message: string;
          audience: string;
        }[];
        return home.find((p) => p.message === 'Fresh for followers');
      });
      expect(kept.audience).toBe('followers');
      // Cat, on the same instance, follows no one there: the kept post is not hers to see.
      expect((await call(a, cat, 'GET', `/api/posts/${kept._id}`)).statusCode).toBe(404);
      const tagged = (await call(a, cat, 'GET', '/api/posts/tagged?tags=hush')).json() as { _id: string }[];
      expect(tagged.map((p) => p._id)).not.toContain(kept._id);
      // Fetched from B without a signature, the Note is not there to anyone.
      const fetched = await fetch(`http://${hostB}/post/${fresh.json()._id}`, {
        headers: { accept: 'application/activity+json' },
      });
      expect(fetched.status).toBe(404);
    },
    WAIT,
  );

  it(
    'a rejected request is answered Reject: it ends on the requester’s side',
    async () => {
      await call(a, cat, 'GET', `/api/users/search?q=${encodeURIComponent(`@${bobThere()}`)}`);
      await call(a, cat, 'PATCH', `/api/users/${encodeURIComponent(bobThere())}/follow`);
      expect((await bobSeenBy(cat)).followRequestedByMe).toBe(true);
      const [request] = await until(async () => {
        const list = (await waitingOnB()).filter((r) => r.username === there(cat));
        return list.length === 1 ? list : null;
      });
      expect((await call(b, bob, 'POST', `/api/follow-requests/${request._id}/reject`)).statusCode).toBe(204);
      await until(async () => !(await bobSeenBy(cat)).followRequestedByMe);
      expect((await bobSeenBy(cat)).followedByMe).toBe(false);
    },
    WAIT,
  );

  it(
    'a follower removed is sent Reject of their Follow: their follow ends there too',
    async () => {
      const annOnB = (await call(b, bob, 'GET', `/api/users/${encodeURIComponent(there(ann))}`)).json().user;
      expect(annOnB.username).toBe(there(ann));
      const removed = await call(b, bob, 'DELETE', `/api/users/${encodeURIComponent(there(ann))}/follower`);
      expect(removed.statusCode).toBe(204);
      expect((await call(b, bob, 'GET', '/api/users/bob')).json().user.followersCount).toBe(0);
      await until(async () => !(await bobSeenBy(ann)).followedByMe);
      expect((await call(a, ann, 'GET', '/api/users/ann')).json().user.followingCount).toBe(0);
    },
    WAIT,
  );
});
