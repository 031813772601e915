/**
 * A person from elsewhere who changes their profile (issue 32, and the caches of issue 31): their
 * `Update(Person)` is kept as sent, a new avatar or banner address is fetched again (the same one is
 * not), a picture their actor no longer has goes, and what the caches keep shows the change at once:
 * a comment of theirs read before shows their new avatar next time, not after `POST_CACHE_MS`.
 */
import sharp from 'sharp';
import type { Comment } from '../../lib/types';
import { createPost } from './factories';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { makeJpeg } from './multipart';
import { type RemoteServer, type RemoteServerOptions, freePort, startRemoteServer, until } from './remoteServer';

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

let t: TestApp;
let local: string;
let remote: RemoteServer;
let ann: SignedInUser;
let zoe: string;
let annPostId: string;
const pictures: NonNullable<RemoteServerOptions['pictures']> = {
  zoe: { icon: '/files/first.png', image: '/files/banner.jpg' },
};

beforeAll(async () => {
  const png = (r: number) =>
    sharp({ create: { width: 64, height: 64, channels: 3, background: { r, g: 40, b: 40 } } })
      .png()
      .toBuffer();
  remote = await startRemoteServer(['zoe'], {
    pictures,
    files: {
      '/files/first.png': { type: 'image/png', body: await png(200) },
      '/files/second.png': { type: 'image/png', body: await png(20) },
      '/files/banner.jpg': { type: 'image/jpeg', body: await makeJpeg(600, 200) },
    },
  });
  const port = await freePort();
  local = `http://127.0.0.1:${port}`;
  // The caches keep what is read for a minute: only the change's event can make them show it sooner.
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true', POST_CACHE_MS: '60000' });
  await t.app.listen({ host: '127.0.0.1', port });
  ann = await signIn(t.app, { username: 'ann' });
  zoe = `zoe@${remote.host}`;
  annPostId = (await createPost(t.app, ann, { message: 'Ann here' }))._id;
  const actor = remote.actorUri('zoe');
  const sent = await remote.signedPost('zoe', `${local}/inbox`, {
    id: `${remote.origin}/creates/1`,
    type: 'Create',
    actor,
    to: PUBLIC,
    object: {
      id: `${remote.origin}/notes/1`,
      type: 'Note',
      attributedTo: actor,
      to: PUBLIC,
      content: '<p>Nice</p>',
      inReplyTo: `${local}/post/${annPostId}`,
    },
  });
  expect(sent.status).toBe(202);
  await until(() => zoeRow());
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

const zoeRow = () =>
  t.db.kysely
    .selectFrom('users')
    .select(['id', 'avatar', 'banner', 'description'])
    .where('username', '=', zoe)
    .executeTakeFirst();
const fetchesOf = (path: string) => remote.requests.filter((r) => r.path === path).length;
/** Zoe's comment on Ann's post as Ann reads it (the caches keep a page from its second read, its rows from their second). */
const zoesComment = async () => {
  const res = await t.app.inject({ method: 'GET', url: `/api/posts/${annPostId}/comments`, headers: ann.headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Comment[]).find((c) => c.creator === zoe);
};

/** Zoe's actor as her server serves it now, sent to this instance in an `Update`. */
async function zoeUpdates(n: number, changes: { summary?: string; preferredUsername?: string } = {}) {
  const actorJson = (await (
    await fetch(remote.actorUri('zoe'), { headers: { accept: 'application/activity+json' } })
  ).json()) as Record<string, unknown>;
  const res = await remote.signedPost('zoe', `${local}/inbox`, {
    id: `${remote.origin}/updates/${n}`,
    type: 'Update',
    actor: remote.actorUri('zoe'),
    to: PUBLIC,
    object: { ...actorJson, ...changes },
  });
  expect(res.status).toBe(202);
}

describe('a person from elsewhere who changes their profile', () => {
  it('is shown with their new avatar at once, in what the caches kept, fetched once', async () => {
    const first = (await until(() => zoesComment()))!;
    const before = await zoeRow();
    expect(before!.avatar).toMatch(/^\/media\/avatar\//);
    expect(first.creatorImage).toBe(before!.avatar);
    for (let read = 0; read < 2; read++) expect((await zoesComment())!.creatorImage).toBe(before!.avatar);

    pictures.zoe.icon = '/files/second.png';
    await zoeUpdates(1);
    const after = await until(async () => {
      const row = await zoeRow();
      return row && row.avatar !== before!.avatar ? row : undefined;
    });
    expect(after.avatar).toMatch(/^\/media\/avatar\//);
    expect((await zoesComment())!.creatorImage).toBe(after.avatar);
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/users/${encodeURIComponent(zoe)}`,
      headers: ann.headers,
    });
    expect(profile.json().user.avatar).toBe(after.avatar);
    // Her banner's address did not change: it was not fetched again.
    expect(after.banner).toBe(before!.banner);
    expect(fetchesOf('/files/banner.jpg')).toBe(1);
    expect(fetchesOf('/files/second.png')).toBe(1);
  });

  it('is not fetched again for an update that keeps the same pictures; a new description shows', async () => {
    await zoeUpdates(2, { summary: '<p>Photos of hills</p>' });
    const row = await until(async () => {
      const found = await zoeRow();
      return found?.description === 'Photos of hills' ? found : undefined;
    });
    expect(fetchesOf('/files/second.png')).toBe(1);
    expect(fetchesOf('/files/banner.jpg')).toBe(1);
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/users/${encodeURIComponent(zoe)}`,
      headers: ann.headers,
    });
    expect(profile.json().user).toMatchObject({ description: 'Photos of hills', banner: row.banner });
  });

  it('has no avatar once their actor has none, in what the caches kept too', async () => {
    expect((await zoesComment())!.creatorImage).toMatch(/^\/media\/avatar\//);
    delete pictures.zoe.icon;
    await zoeUpdates(3);
    await until(async () => (await zoeRow())?.avatar === null);
    expect((await zoesComment())!.creatorImage).toBeNull();
  });

  it('is shown under their new name at once when their actor is renamed', async () => {
    const comments = async () =>
      (
        await t.app.inject({ method: 'GET', url: `/api/posts/${annPostId}/comments`, headers: ann.headers })
      ).json() as Comment[];
    expect((await comments()).map((c) => c.creator)).toContain(zoe);
    await zoeUpdates(4, { preferredUsername: 'zoey' });
    const renamed = `zoey@${remote.host}`;
    await until(() => t.db.kysely.selectFrom('users').select('id').where('username', '=', renamed).executeTakeFirst());
    expect((await comments()).map((c) => c.creator)).toEqual([renamed]);
  });
});
