/**
 * Two Posts instances federating with an ActivityPub server that is not built on Fedify (issue 67,
 * item 4): activitypub.bot (`@evanp/activitypub-bot`, pinned in package.json), run through its own
 * command on a loopback port with its own SQLite file (tests/server/independentPeer.ts). Its one
 * account, `peer`, is its FollowBackBot, which also answers a mention with a reply and a like
 * (independentPeer/bots.mjs). Over real HTTP, signed both ways:
 *
 * - Ann on A and Bob on B find the peer by its handle and follow it; it accepts and follows each
 *   back (both sides counted: its `followers` and `following` collections, their counts here).
 * - A post of Ann's that mentions the peer reaches it; its reply arrives on A as a comment on that
 *   post, and its like is counted there (both notified). The same for a post of Bob's on B.
 * - Ann's unfollow leaves its `followers`, and its unfollow back ends her follower here.
 *
 * What activitypub.bot cannot do is not faked: it has no people posting of their own accord (its
 * accounts are bots), so posts from it arrive here only as replies; text-only notes from
 * elsewhere are not kept as posts by Posts anyway (docs/API.md, Federation).
 * Every wait is for something to arrive, never for a time; the test's timeout bounds it.
 */
import { createPost } from './factories';
import { type IndependentPeer, startIndependentPeer } from './independentPeer';
import { type SignedInUser, type TestApp, signIn } from './helpers';
import { federatedInstance } from './federatedInstance';

/**
 * Resolves once `check` holds (each look after a pause); the test's own timeout bounds it. Looks at
 * the peer's collections pause longer: activitypub.bot limits the requests of each address.
 */
async function until<T>(check: () => T | Promise<T>, pause = 50): Promise<NonNullable<T>> {
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
const PEER_PAUSE = 500;

const WAIT = 90_000;

let peer: IndependentPeer;
let a: TestApp;
let b: TestApp;
let ann: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  peer = await startIndependentPeer();
  ({ t: a } = await federatedInstance());
  ({ t: b } = await federatedInstance());
  ann = await signIn(a.app, { username: 'ann' });
  bob = await signIn(b.app, { username: 'bob' });
}, WAIT);
afterAll(async () => {
  await a?.close();
  await b?.close();
  await peer?.close();
});

const call = (
  t: TestApp,
  user: SignedInUser,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: user.headers, payload });

const peerHere = () => `peer@${peer.host}`;
const actorOf = (t: TestApp, user: SignedInUser) => `${t.config.federation!.origin}/users/${user.id}`;

async function profile(t: TestApp, viewer: SignedInUser, username: string) {
  const res = await call(t, viewer, 'GET', `/api/users/${encodeURIComponent(username)}`);
  return res.statusCode === 200 ? (res.json().user as { followersCount: number; followingCount: number }) : null;
}

async function notificationsOf(t: TestApp, user: SignedInUser) {
  const res = await call(t, user, 'GET', '/api/notifications?limit=40');
  return res.json() as { type: string; actor: { username: string } }[];
}

const keptPost = (t: TestApp, id: string) =>
  t.db.kysely.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe(`an independent ActivityPub server: activitypub.bot`, () => {
  for (const [name, t, user] of [
    ['Ann on A', () => a, () => ann],
    ['Bob on B', () => b, () => bob],
  ] as const) {
    it(
      `${name} finds the peer by its handle and follows it; it follows back`,
      async () => {
        const search = await call(t(), user(), 'GET', `/api/users/search?q=${encodeURIComponent(`@${peerHere()}`)}`);
        expect(search.statusCode, search.body).toBe(200);
        expect(search.json()).toEqual([expect.objectContaining({ username: peerHere(), followedByMe: false })]);

        const follow = await call(t(), user(), 'PATCH', `/api/users/${encodeURIComponent(peerHere())}/follow`);
        expect(follow.statusCode, follow.body).toBe(200);
        // Kept there: its followers collection lists her actor.
        await until(async () => (await peer.collection('followers')).includes(actorOf(t(), user())), PEER_PAUSE);
        // And it follows back: counted here, listed in its following collection.
        await until(async () => (await profile(t(), user(), user().username))?.followersCount === 1);
        expect((await profile(t(), user(), user().username))?.followingCount).toBe(1);
        // Her Accept moves her from its pending follows into its following collection.
        await until(async () => (await peer.collection('following')).includes(actorOf(t(), user())), PEER_PAUSE);
        await until(async () =>
          (await notificationsOf(t(), user())).some((n) => n.type === 'follow' && n.actor.username === peerHere()),
        );
      },
      WAIT,
    );
  }

  for (const [name, t, user] of [
    ['Ann on A', () => a, () => ann],
    ['Bob on B', () => b, () => bob],
  ] as const) {
    it(
      `a post of ${name}'s mentioning the peer reaches it: its reply arrives as a comment, its like is counted`,
      async () => {
        const post = await createPost(t().app, user(), { message: `Hello @${peerHere()}!`, tags: ['hello'] });
        expect(post.mentions).toEqual([peerHere()]);

        const kept = await until(async () => {
          const row = await keptPost(t(), post._id);
          return row.comments_count === 1 && row.likes_count === 1 ? row : null;
        });
        expect(kept).toMatchObject({ comments_count: 1, likes_count: 1 });
        const comments = (await call(t(), user(), 'GET', `/api/posts/${post._id}/comments`)).json() as {
          message: string;
          creator: string;
          originalUri?: string;
        }[];
        expect(comments).toEqual([expect.objectContaining({ message: 'Thanks for the mention', creator: peerHere() })]);
        expect(comments[0]!.originalUri).toMatch(new RegExp(`^${peer.origin}/user/peer/`));
        // Its like is in its liked collection too.
        expect(await peer.collection('liked')).toContain(`${t().config.federation!.origin}/post/${post._id}`);
        await until(async () => {
          const list = await notificationsOf(t(), user());
          return ['comment', 'like'].every((type) =>
            list.some((n) => n.type === type && n.actor.username === peerHere()),
          );
        });
      },
      WAIT,
    );
  }

  it(
    "Ann's unfollow leaves its followers, and its unfollow back ends her follower here",
    async () => {
      const res = await call(a, ann, 'PATCH', `/api/users/${encodeURIComponent(peerHere())}/unfollow`);
      expect(res.statusCode, res.body).toBe(200);
      expect((await profile(a, ann, 'ann'))?.followingCount).toBe(0);
      await until(async () => !(await peer.collection('followers')).includes(actorOf(a, ann)), PEER_PAUSE);
      await until(async () => (await profile(a, ann, 'ann'))?.followersCount === 0);
      expect(await peer.collection('following')).not.toContain(actorOf(a, ann));
      // Bob on B still follows it, and it him.
      expect(await peer.collection('followers')).toContain(actorOf(b, bob));
      expect((await profile(b, bob, 'bob'))?.followersCount).toBe(1);
    },
    WAIT,
  );
});
