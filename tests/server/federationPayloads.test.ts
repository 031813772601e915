/**
 * What other servers really send (issue 67, item 4): each payload of `fediversePayloads.ts`, in the
 * shape Mastodon, Pixelfed, GoToSocial, Pleroma/Akkoma, Misskey, Lemmy or PeerTube writes it, is sent
 * signed to the inbox, in order, and is either shown as it should be (a post with its photo, text
 * and tags; a comment; a like; a follow and its undoing; an edit; a deletion) or answered 2xx/4xx
 * and ignored — never a 5xx, and nothing else lost.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Payload, type PayloadSite, payloads } from './fediversePayloads';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { type RemoteServer, freePort, startRemoteServer, until } from './remoteServer';

const PNG = readFileSync(path.resolve(import.meta.dirname, '../fixtures/pngsuite/png/basn2c08.png'));
/** Pleroma's litepub context as its servers serve it (`/schemas/litepub-0.1.jsonld`). */
const LITEPUB = {
  '@context': [
    'https://www.w3.org/ns/activitystreams',
    'https://w3id.org/security/v1',
    {
      Emoji: 'toot:Emoji',
      Hashtag: 'as:Hashtag',
      PropertyValue: 'schema:PropertyValue',
      atomUri: 'ostatus:atomUri',
      conversation: { '@id': 'ostatus:conversation', '@type': '@id' },
      manuallyApprovesFollowers: 'as:manuallyApprovesFollowers',
      ostatus: 'http://ostatus.org#',
      schema: 'http://schema.org#',
      sensitive: 'as:sensitive',
      toot: 'http://joinmastodon.org/ns#',
      totalItems: 'as:totalItems',
      value: 'schema:value',
      litepub: 'http://litepub.social/ns#',
      directMessage: 'litepub:directMessage',
      oauthRegistrationEndpoint: { '@id': 'litepub:oauthRegistrationEndpoint', '@type': '@id' },
    },
  ],
};

let t: TestApp;
let remote: RemoteServer;
let ann: SignedInUser;
let at: PayloadSite;
let localPostId: string;

beforeAll(async () => {
  remote = await startRemoteServer(['zoe'], {
    files: {
      '/files/photo.png': { type: 'image/png', body: PNG },
      '/schemas/litepub-0.1.jsonld': { type: 'application/ld+json', body: Buffer.from(JSON.stringify(LITEPUB)) },
    },
  });
  const port = await freePort();
  const local = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true' });
  await t.app.listen({ host: '127.0.0.1', port });
  ann = await signIn(t.app, { username: 'ann' });
  localPostId = (await createPost(t.app, ann, { message: 'Seen from afar' }))._id;
  at = {
    origin: remote.origin,
    actor: remote.actorUri('zoe'),
    localActor: `${local}/users/${ann.id}`,
    localPost: `${local}/post/${localPostId}`,
    image: `${remote.origin}/files/photo.png`,
  };
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

const postWithUri = (uri: string) =>
  t.db.kysely
    .selectFrom('posts')
    .select(['message', 'tags', 'image', 'crop'])
    .where('uri', '=', uri)
    .executeTakeFirst();
const commentWithUri = (uri: string) =>
  t.db.kysely.selectFrom('comments').select(['message']).where('uri', '=', uri).executeTakeFirst();
const localPost = () =>
  t.db.kysely
    .selectFrom('posts')
    .select(['likes_count', 'comments_count'])
    .where('id', '=', localPostId)
    .executeTakeFirstOrThrow();
const followers = async () =>
  (await t.db.kysely.selectFrom('federation_followers').select('actor_uri').execute()).map((row) => row.actor_uri);

/** What each payload is expected to have done, checked after it was sent (in the table's order). */
const effects: Record<string, () => Promise<void>> = {
  Like: async () => void (await until(async () => (await localPost()).likes_count === 1)),
  'Follow, then Undo(Follow)': async () => void (await until(async () => (await followers()).includes(at.actor))),
  'Undo(Follow)': async () => void (await until(async () => !(await followers()).includes(at.actor))),
  'Delete of a post (a Tombstone)': async () =>
    void (await until(async () => (await postWithUri(`${at.actor}/statuses/101`)) === undefined)),
  'Create(Page): a link post with an image, to a community': async () =>
    expect(await postWithUri(`${at.origin}/post/42`)).toBeUndefined(),
  'Create(Video)': async () => expect(await postWithUri(`${at.origin}/videos/watch/0b9a`)).toBeUndefined(),
};

async function shown({ shows }: Payload) {
  if (!shows) return;
  const uri = shows.uri(at);
  if (shows.as === 'comment') {
    const comment = await until(() => commentWithUri(uri));
    expect(comment.message).toBe(shows.text);
    return;
  }
  const post = await until(async () => {
    const row = await postWithUri(uri);
    return row?.message === shows.text ? row : undefined;
  });
  // The photo fetched into this instance's media, not the placeholder.
  expect(post.image).toMatch(/^\/media\//);
  if (shows.tags) expect(JSON.parse(post.tags)).toEqual(shows.tags);
  if (shows.crop !== undefined) expect(post.crop).toBe(shows.crop);
}

describe('payloads as other servers send them', () => {
  it.each(payloads.map((payload) => [`${payload.server}: ${payload.kind}`, payload] as const))(
    '%s',
    async (_name, payload) => {
      const response = await remote.signedPost('zoe', `${at.localActor}/inbox`, payload.activity(at));
      expect(response.status, await response.text()).toBeLessThan(500);
      expect(response.status).toBeGreaterThanOrEqual(200);
      await shown(payload);
      await effects[payload.kind]?.();
    },
  );

  it('an Undo naming its Follow by id alone (as activitypub.bot sends it; not fetchable) ends that follow', async () => {
    const follow = `${at.origin}/user/zoe/follow/u6Qw2`;
    const sent = (activity: Record<string, unknown>) =>
      remote.signedPost('zoe', `${at.localActor}/inbox`, {
        '@context': 'https://www.w3.org/ns/activitystreams',
        actor: at.actor,
        ...activity,
      });
    expect((await sent({ id: follow, type: 'Follow', object: at.localActor })).status).toBe(202);
    await until(async () => (await followers()).includes(at.actor));
    // Someone else naming that Follow ends nothing (it is fetched then, and cannot be: a 5xx, tried again).
    const other = await startRemoteServer(['eve']);
    try {
      await other.signedPost('eve', `${at.localActor}/inbox`, {
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${other.origin}/user/eve/undo/1`,
        type: 'Undo',
        actor: other.actorUri('eve'),
        object: follow,
      });
    } finally {
      await other.close();
    }
    expect(await followers()).toContain(at.actor);
    expect((await sent({ id: `${at.origin}/user/zoe/undo/k3Lp9`, type: 'Undo', object: follow })).status).toBe(202);
    await until(async () => !(await followers()).includes(at.actor));
  });

  it('left everything else as it was: the local post, its comment and like', async () => {
    expect(await localPost()).toEqual({ likes_count: 1, comments_count: 1 });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/posts/${localPostId}`, headers: ann.headers })).statusCode,
    ).toBe(200);
  });
});
