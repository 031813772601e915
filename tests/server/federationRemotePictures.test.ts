/**
 * A person from elsewhere's pictures (issue 32): their actor's `icon` (avatar) and `image` (banner)
 * are each fetched once into this instance's media through the upload pipeline, and their profile
 * shows them; a picture that cannot be fetched or read (missing, no image, over the cap) leaves
 * none, and the look-up still answers.
 */
import sharp from 'sharp';
import { UPLOAD_MAX_BYTES } from '../../lib/limits';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { makeJpeg } from './multipart';
import { type RemoteServer, freePort, startRemoteServer } from './remoteServer';

let t: TestApp;
let remote: RemoteServer;
let ann: SignedInUser;

beforeAll(async () => {
  const jpeg = await makeJpeg(1200, 400);
  const webp = await sharp(await makeJpeg(200, 200))
    .webp()
    .toBuffer();
  remote = await startRemoteServer(['zoe', 'yan', 'xia'], {
    pictures: {
      zoe: { icon: '/files/avatar.webp', image: '/files/banner.jpg' },
      // Her banner is gone, and his is more than an upload may be.
      yan: { icon: '/files/avatar.webp', image: '/files/gone.jpg' },
      xia: { image: '/files/huge.jpg' },
    },
    files: {
      '/files/avatar.webp': { type: 'image/webp', body: webp },
      '/files/banner.jpg': { type: 'image/jpeg', body: jpeg },
      '/files/huge.jpg': { type: 'image/jpeg', body: Buffer.alloc(UPLOAD_MAX_BYTES + 1024) },
    },
  });
  const port = await freePort();
  t = await createTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}`, FEDERATION_ALLOW_PRIVATE: 'true' });
  ann = await signIn(t.app, { username: 'ann' });
});
afterAll(async () => {
  await t.close();
  await remote.close();
});

const lookUp = (name: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/users/search?q=${encodeURIComponent(`@${name}@${remote.host}`)}`,
    headers: ann.headers,
  });
const profile = (name: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/users/${encodeURIComponent(`${name}@${remote.host}`)}`,
    headers: ann.headers,
  });

describe("a person from elsewhere's pictures", () => {
  it('are their avatar and banner, fetched into this instance’s media and shown on their profile', async () => {
    const found = await lookUp('zoe');
    expect(found.statusCode, found.body).toBe(200);
    const res = await profile('zoe');
    expect(res.statusCode, res.body).toBe(200);
    const { avatar, banner } = (res.json() as { user: { avatar: string; banner: string } }).user;
    expect(avatar).toMatch(/^\/media\/avatar\//);
    expect(banner).toMatch(/^\/media\/banner\//);
    // Through the pipeline: an upload of hers with the banner's preset, served from here.
    const upload = await t.db.kysely
      .selectFrom('media')
      .innerJoin('users', 'users.id', 'media.owner_id')
      .select('media.preset')
      .where('users.username', '=', `zoe@${remote.host}`)
      .where('media.preset', '=', 'banner')
      .executeTakeFirstOrThrow();
    expect(upload.preset).toBe('banner');
    expect((await t.app.inject({ method: 'GET', url: banner })).statusCode).toBe(200);
  });

  it('are fetched once: looking them up again does not fetch the banner again', async () => {
    const fetches = () => remote.requests.filter((r) => r.path === '/files/banner.jpg').length;
    const before = fetches();
    expect(before).toBe(1);
    expect((await lookUp('zoe')).statusCode).toBe(200);
    expect(fetches()).toBe(before);
  });

  it('leave no banner when it cannot be fetched or is over the cap; the avatar and the look-up are unharmed', async () => {
    const yan = await lookUp('yan');
    expect(yan.statusCode, yan.body).toBe(200);
    expect((yan.json() as unknown[]).length).toBe(1);
    expect((await profile('yan')).json().user).toMatchObject({
      avatar: expect.stringMatching(/^\/media\/avatar\//),
      banner: null,
    });
    const xia = await lookUp('xia');
    expect(xia.statusCode, xia.body).toBe(200);
    expect((await profile('xia')).json().user).toMatchObject({ avatar: null, banner: null });
  });
});
