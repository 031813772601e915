/**
 * A `Move` reaching an ActivityPub server that is not built on Fedify (issue 76): activitypub.bot
 * (tests/server/independentPeer.ts) follows Old on a Posts instance (its FollowBackBot follows back
 * whoever follows it); Old moves to New on the same instance. The `Move` goes to its inbox, signed,
 * and its bot (independentPeer/bots.mjs) does what Mastodon does: follows New, which Posts counts.
 * Every wait is for something to arrive, never for a time.
 */
import { federatedInstance } from './federatedInstance';
import { type IndependentPeer, startIndependentPeer } from './independentPeer';
import { until } from './remoteServer';
import { type SignedInUser, type TestApp, signIn } from './helpers';

const WAIT = 90_000;
/** activitypub.bot limits the requests of each address: its collections are looked at less often. */
const PEER_PAUSE = 500;

let peer: IndependentPeer;
let a: TestApp;
let hostA: string;
let old: SignedInUser;
let young: SignedInUser;

beforeAll(async () => {
  peer = await startIndependentPeer();
  ({ t: a, host: hostA } = await federatedInstance());
  old = await signIn(a.app, { username: 'old' });
  young = await signIn(a.app, { username: 'new' });
}, WAIT);
afterAll(async () => {
  await a?.close();
  await peer?.close();
});

const call = (user: SignedInUser, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  a.app.inject({ method, url, headers: user.headers, payload });

const followersOf = async (username: string) =>
  (await call(old, 'GET', `/api/users/${username}`)).json().user.followersCount as number;

async function pause() {
  await new Promise((resolve) => setTimeout(resolve, PEER_PAUSE));
}

describe('activitypub.bot following a moved account', () => {
  it(
    'receives the Move and follows the new account',
    async () => {
      const peerHere = `peer@${peer.host}`;
      expect((await call(old, 'GET', `/api/users/search?q=${encodeURIComponent(`@${peerHere}`)}`)).statusCode).toBe(
        200,
      );
      expect((await call(old, 'PATCH', `/api/users/${encodeURIComponent(peerHere)}/follow`)).statusCode).toBe(200);
      // It follows back: a follower of Old elsewhere.
      await until(async () => (await followersOf('old')) === 1 || (await pause(), false));

      const alias = await call(young, 'POST', '/api/users/me/aliases', { address: `old@${hostA}` });
      expect(alias.statusCode, alias.body).toBe(200);
      const moved = await call(old, 'POST', '/api/users/me/move', { address: 'new' });
      expect(moved.statusCode, moved.body).toBe(200);

      // Its Follow of New arrives, and its own following collection lists New.
      await until(async () => (await followersOf('new')) === 1 || (await pause(), false));
      const newActor = `${a.config.federation!.origin}/users/${young.id}`;
      await until(async () => (await peer.collection('following')).includes(newActor) || (await pause(), false));
    },
    WAIT,
  );
});
