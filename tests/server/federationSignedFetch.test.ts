/**
 * Fetching what is not public needs a signed request from someone it is for (issue 70, item 3): a
 * post for followers (and a comment on it) is served to a fetch signed by an approved follower
 * elsewhere, a post for the people named to one of them; unsigned, signed by a stranger elsewhere,
 * or by a follower who was removed, the answer is 404, as for a post that does not exist. The other
 * server is a Fedify federation of its own on loopback, signing its GETs with its people's keys.
 */
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { type RemoteServer, freePort, startRemoteServer, until } from './remoteServer';

let t: TestApp;
let local: string;
let remote: RemoteServer;
let ann: SignedInUser;

beforeAll(async () => {
  remote = await startRemoteServer(['zoe', 'yan', 'max']);
  const port = await freePort();
  local = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true' });
  await t.app.listen({ host: '127.0.0.1', port });
  ann = await signIn(t.app, { username: 'ann' });
  // Zoe follows Ann from elsewhere (Ann approves nobody by hand: the follow holds at once).
  const follow = { id: `${remote.actorUri('zoe')}#follows/1`, type: 'Follow', actor: remote.actorUri('zoe') };
  const res = await remote.signedPost('zoe', `${local}/users/${ann.id}/inbox`, {
    ...follow,
    object: `${local}/users/${ann.id}`,
  });
  expect(res.status).toBe(202);
  await until(async () =>
    (await t.db.kysely.selectFrom('federation_followers').select('actor_uri').execute()).some(
      (row) => row.actor_uri === remote.actorUri('zoe'),
    ),
  );
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

const unsigned = (url: string) => fetch(url, { headers: { accept: 'application/activity+json' } });

async function commentOn(postId: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/posts/${postId}/comments`,
    headers: ann.headers,
    payload: { message: 'A word under it' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().commentId;
}

describe('fetching a post that is not public', () => {
  it('a followers-only post and its comment: to a signed fetch by a follower, 404 to anyone else', async () => {
    const post = await createPost(t.app, ann, { message: 'Only for friends', audience: 'followers' });
    const postUrl = `${local}/post/${post._id}`;
    const commentUrl = `${local}/comments/${await commentOn(post._id)}`;

    const byZoe = await remote.signedGet('zoe', postUrl);
    expect(byZoe.status).toBe(200);
    const note = await byZoe.json();
    expect(note.type).toBe('Note');
    expect(note.content).toContain('Only for friends');
    expect(note.to).toBe(`${local}/users/${ann.id}/followers`);
    expect((await remote.signedGet('zoe', commentUrl)).status).toBe(200);

    for (const url of [postUrl, commentUrl]) {
      expect((await unsigned(url)).status).toBe(404);
      expect((await remote.signedGet('yan', url)).status).toBe(404);
    }
  });

  it('a post for the people named: to a signed fetch by one named, 404 to a follower who is not', async () => {
    const post = await createPost(t.app, ann, {
      message: `Just for @yan@${remote.host}`,
      audience: 'mentioned',
    });
    const postUrl = `${local}/post/${post._id}`;
    expect((await remote.signedGet('yan', postUrl)).status).toBe(200);
    expect((await remote.signedGet('zoe', postUrl)).status).toBe(404);
    expect((await remote.signedGet('max', postUrl)).status).toBe(404);
    expect((await unsigned(postUrl)).status).toBe(404);
  });

  it('a public post is anyone’s, signed or not; a signature by someone unknown here changes nothing', async () => {
    const post = await createPost(t.app, ann, { message: 'For everyone' });
    expect((await unsigned(`${local}/post/${post._id}`)).status).toBe(200);
    expect((await remote.signedGet('max', `${local}/post/${post._id}`)).status).toBe(200);
  });

  it('the outbox lists public and unlisted posts only, to a follower’s signed fetch too', async () => {
    const shown = await Promise.all(
      (['public', 'unlisted'] as const).map((audience) => createPost(t.app, ann, { message: audience, audience })),
    );
    const kept = await Promise.all(
      (['followers', 'mentioned'] as const).map((audience) => createPost(t.app, ann, { message: audience, audience })),
    );
    const outbox = await (await remote.signedGet('zoe', `${local}/users/${ann.id}/outbox`)).json();
    const page = await (await remote.signedGet('zoe', outbox.first)).json();
    const listed = (page.orderedItems as { object: { id: string } }[]).map((item) => item.object.id);
    for (const post of shown) expect(listed).toContain(`${local}/post/${post._id}`);
    for (const post of kept) expect(listed).not.toContain(`${local}/post/${post._id}`);
  });

  it('a follower Ann removes loses the followers-only posts at once', async () => {
    const post = await createPost(t.app, ann, { message: 'Still friends?', audience: 'followers' });
    const postUrl = `${local}/post/${post._id}`;
    expect((await remote.signedGet('zoe', postUrl)).status).toBe(200);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${encodeURIComponent(`zoe@${remote.host}`)}/follower`,
      headers: ann.headers,
    });
    expect(res.statusCode, res.body).toBe(204);
    expect((await remote.signedGet('zoe', postUrl)).status).toBe(404);
  });
});
