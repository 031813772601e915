/**
 * Images from elsewhere get every bound an upload has (issue 68, item 34): a format read from the
 * bytes (never SVG, never what Content-Type claims), the header checked before any decode, and the
 * uploads' own job queue. A refused picture leaves the person without it; what brought them here
 * (a `Follow`, a look-up) still works, and nothing is stored.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { MISSING_REMOTE_IMAGE, remoteImageTurns } from '../../server/federation/remoteImages';
import { imageJobs } from '../../server/media/pipeline';
import { type SignedInUser, type TestApp, createTestApp, signIn } from './helpers';
import { type RemoteServer, freePort, startRemoteServer, until } from './remoteServer';

/** 1,031 bytes of AV1 whose picture is 7,000 × 7,000 (49 MP): tests/fixtures/README.md. */
const avif7000 = readFileSync(path.join(import.meta.dirname, '../fixtures/remote/7000x7000.avif'));

/**
 * An SVG, harmless here: any SVG is refused unread, since a small one can ask librsvg for minutes of
 * work and gigabytes (a blur over 7,000 × 7,000 pixels in 225 bytes, docs/benchmarks/log/2026-12-05.md, "Images from elsewhere").
 */
const svg = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#3a8"/></svg>',
);

/** A small PNG whose IHDR (with a valid CRC) says `width` × `height`: only the header is a lie. */
async function forgedPng(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: '#3a8' } })
      .png()
      .toBuffer(),
  );
  // Signature (8), then IHDR: length (4), type (4), width, height… and the CRC of type + data.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

let t: TestApp;
let remote: RemoteServer;
let ann: SignedInUser;
let local: string;

beforeAll(async () => {
  const avif = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3a8' } })
    .avif()
    .toBuffer();
  remote = await startRemoteServer(['wes', 'vic', 'una', 'tom', 'sam', 'rex'], {
    pictures: {
      wes: { icon: '/files/avatar.svg' },
      vic: { icon: '/files/avatar.avif' },
      una: { icon: '/files/avatar.png', image: '/files/banner.png' },
      tom: { icon: '/files/avatar.jpg' },
      sam: { icon: '/files/small.avif' },
      rex: { icon: '/files/rex.avif' },
    },
    files: {
      // Each claims to be an image: the bytes decide.
      '/files/avatar.svg': { type: 'image/png', body: svg },
      '/files/avatar.avif': { type: 'image/avif', body: avif7000 },
      '/files/avatar.png': { type: 'image/png', body: await forgedPng(30_000, 30_000) },
      // Under 50 MP, so only the row's bytes refuse it.
      '/files/banner.png': { type: 'image/png', body: await forgedPng(40_000, 1_000) },
      '/files/avatar.jpg': { type: 'image/jpeg', body: Buffer.from('<!doctype html><title>Hi</title><p>Not here') },
      '/files/small.avif': { type: 'image/avif', body: avif },
      '/files/rex.avif': { type: 'image/avif', body: avif },
      '/files/photo.svg': { type: 'image/jpeg', body: svg },
    },
  });
  const port = await freePort();
  local = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: local, FEDERATION_ALLOW_PRIVATE: 'true' });
  await t.app.listen({ host: '127.0.0.1', port });
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
const userOf = async (name: string) =>
  (
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/users/${encodeURIComponent(`${name}@${remote.host}`)}`,
        headers: ann.headers,
      })
    ).json() as { user: { avatar: string | null; banner: string | null } }
  ).user;
const fetched = (file: string) => remote.requests.some((r) => r.path === file);
const mediaOf = (name: string) =>
  t.db.kysely
    .selectFrom('media')
    .innerJoin('users', 'users.id', 'media.owner_id')
    .select('media.id')
    .where('users.username', '=', `${name}@${remote.host}`)
    .execute();

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

describe('an image from elsewhere', () => {
  it('is never rendered when it is an SVG: the person who follows has no avatar, and the follow works', async () => {
    const annUri = `${local}/users/${ann.id}`;
    const followed = await remote.signedPost('wes', `${annUri}/inbox`, {
      id: `${remote.origin}/follows/wes`,
      type: 'Follow',
      actor: remote.actorUri('wes'),
      object: annUri,
    });
    expect(followed.status).toBe(202);
    const follower = await until(() =>
      t.db.kysely
        .selectFrom('federation_followers')
        .selectAll()
        .where('actor_uri', '=', remote.actorUri('wes'))
        .executeTakeFirst(),
    );
    expect(follower).toBeDefined();
    // The Accept went back to them.
    await until(() => remote.delivered().some((a) => a.type === 'Accept'));
    expect(fetched('/files/avatar.svg')).toBe(true);
    expect(await userOf('wes')).toMatchObject({ avatar: null, banner: null });
    expect(await mediaOf('wes')).toEqual([]);
  });

  it('is refused from its header when it promises more than an upload may be, before it waits for a decode', async () => {
    // The decode slot is held: an image that needed decoding would wait for it (and the look-up
    // with it). Refusals from the header answer at once.
    const release = await imageJobs.acquire('a test holding the slot');
    try {
      for (const name of ['vic', 'una']) {
        const found = await lookUp(name);
        expect(found.statusCode, found.body).toBe(200);
        expect(imageJobs.depth()).toEqual({ running: 1, queued: 0 });
      }
    } finally {
      release();
    }
    expect(fetched('/files/avatar.avif') && fetched('/files/avatar.png') && fetched('/files/banner.png')).toBe(true);
    for (const name of ['vic', 'una']) {
      expect(await userOf(name)).toMatchObject({ avatar: null, banner: null });
      expect(await mediaOf(name)).toEqual([]);
    }
  });

  it('is refused when the bytes are no image, whatever its Content-Type says', async () => {
    expect((await lookUp('tom')).statusCode).toBe(200);
    expect(fetched('/files/avatar.jpg')).toBe(true);
    expect(await userOf('tom')).toMatchObject({ avatar: null });
    expect(await mediaOf('tom')).toEqual([]);
  });

  it("is a post's placeholder when the post's attachment is refused (SVG, a 49 MP AVIF); the post is kept", async () => {
    const annUri = `${local}/users/${ann.id}`;
    const actor = remote.actorUri('wes');
    for (const [id, file] of [
      ['svg', '/files/photo.svg'],
      ['avif', '/files/avatar.avif'],
    ]) {
      // It names Ann, so it is kept here.
      const res = await remote.signedPost('wes', `${local}/inbox`, {
        id: `${remote.origin}/creates/${id}`,
        type: 'Create',
        actor,
        to: PUBLIC,
        object: {
          id: `${remote.origin}/notes/${id}`,
          type: 'Note',
          attributedTo: actor,
          to: PUBLIC,
          content: '<p>Look @ann</p>',
          attachment: [{ type: 'Image', mediaType: 'image/png', url: `${remote.origin}${file}` }],
          tag: [{ type: 'Mention', href: annUri, name: `@ann@${new URL(local).host}` }],
        },
      });
      expect(res.status).toBe(202);
      const post = await until(() =>
        t.db.kysely
          .selectFrom('posts')
          .select(['image', 'media_id'])
          .where('uri', '=', `${remote.origin}/notes/${id}`)
          .executeTakeFirst(),
      );
      expect(post, id).toEqual({ image: MISSING_REMOTE_IMAGE, media_id: null });
    }
    expect(await mediaOf('wes')).toEqual([]);
  });

  it('within the bounds (a small AVIF) waits for the same job slot as uploads, then is stored', async () => {
    const release = await imageJobs.acquire('a test holding the slot');
    const found = lookUp('sam');
    try {
      // Queued behind the slot's holder, like any upload.
      await until(() => imageJobs.depth().queued === 1);
      expect(await mediaOf('sam')).toEqual([]);
    } finally {
      release();
    }
    expect((await found).statusCode).toBe(200);
    expect((await userOf('sam')).avatar).toMatch(/^\/media\/avatar\//);
    // Its other sizes are written after the look-up answers; then the slot is free again.
    await until(() => imageJobs.depth().running === 0);
  });

  it('is fetched only in its turn: a crowd of them arriving at once holds no more than 8 at a time', async () => {
    const held = await Promise.all(Array.from({ length: 8 }, () => remoteImageTurns.acquire()));
    const found = lookUp('rex');
    try {
      // Their actor was read; their avatar waits for a turn, not yet fetched.
      await until(() => remoteImageTurns.waiting() === 1);
      expect(fetched('/files/rex.avif')).toBe(false);
    } finally {
      for (const release of held) release();
    }
    expect((await found).statusCode).toBe(200);
    expect(fetched('/files/rex.avif')).toBe(true);
    expect((await userOf('rex')).avatar).toMatch(/^\/media\/avatar\//);
  });
});
